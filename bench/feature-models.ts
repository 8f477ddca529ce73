/**
 * Public feature models in bench:consistency (`FEATURE_MODELS=<a.dimacs>,<b.dimacs>`):
 * each DIMACS CNF file is converted at bench time by tools/dimacs-to-model.mjs (required
 * booleans, one clause rule per clause: nothing of the data is committed), its count
 * checked against bench/count-cnf.ts's independent count when it has at most
 * COUNT_CHECK_VARIABLES variables (default 600), then compiled and clicked like the
 * Renault cars. Sources, e.g. github.com/SoftVarE-Group/feature-model-benchmark
 * (feature_models/dimacs/…): automotive01 (Kowal2016), the SPLOT-era models of
 * 200–600 features (windows, ubuntu, pc-richmond, …); a FeatureIDE `.xml` file is first
 * turned into CNF by tools/featureide-to-dimacs.mjs (automotive02's 18,616-feature
 * versions are published only so); see bench/README.md.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { dimacsToModel as Convert } from '../tools/dimacs-to-model.mjs';
import type { featureIdeToDimacs as ToDimacs } from '../tools/featureide-to-dimacs.mjs';
import { countModels, parseCnf } from './count-cnf.js';

export interface FeatureModel {
  label: string;
  document: unknown;
  /** The independent count, when the formula is small enough to count here. */
  expected: bigint | undefined;
}

/** The converters, loaded from the checkout (dist-bench does not copy tools/). */
async function converter(): Promise<typeof Convert> {
  const url = new URL('../../tools/dimacs-to-model.mjs', import.meta.url);
  return ((await import(url.href)) as { dimacsToModel: typeof Convert }).dimacsToModel;
}

async function xmlConverter(): Promise<typeof ToDimacs> {
  const url = new URL('../../tools/featureide-to-dimacs.mjs', import.meta.url);
  return ((await import(url.href)) as { featureIdeToDimacs: typeof ToDimacs }).featureIdeToDimacs;
}

export async function loadFeatureModels(paths: readonly string[]): Promise<FeatureModel[]> {
  const convert = await converter();
  const toDimacs = await xmlConverter();
  const limit = Number(process.env.COUNT_CHECK_VARIABLES ?? 600);
  return paths.map((path) => {
    const read = readFileSync(path, 'utf8');
    const text = path.endsWith('.xml') ? toDimacs(read).text : read;
    const converted = convert(text, { name: basename(path), indexKeys: true });
    const json = JSON.stringify(converted.document);
    const label =
      `${basename(path)}: ${converted.variables} questions, ${converted.clauses} clause rules, ` +
      `${(json.length / 1e6).toFixed(2)} MB as JSON`;
    let expected: bigint | undefined;
    if (converted.variables <= limit) {
      const { variables, clauses } = parseCnf(text);
      const started = performance.now();
      expected = countModels(variables, clauses);
      console.log(
        `  ${basename(path)}: independent count ${expected} (${(performance.now() - started).toFixed(0)} ms)`,
      );
    }
    return { label, document: converted.document, expected };
  });
}
