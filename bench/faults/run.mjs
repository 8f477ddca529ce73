/**
 * npm run bench:faults: runs every bench/faults/*.scenario.mjs one after another (each
 * exports `default async function run(options)` answering `{name, passed, figures}` and
 * runs alone too: `node bench/faults/<name>.scenario.mjs`), prints each result and a table,
 * and exits 1 when one did not pass. `--only a,b` runs the scenarios whose names contain
 * one of the words.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt === -1 ? null : process.argv[onlyAt + 1].split(',');
const files = readdirSync(here)
  .filter((file) => file.endsWith('.scenario.mjs'))
  .filter((file) => !only || only.some((word) => file.includes(word)))
  .sort();

const results = [];
for (const file of files) {
  const { default: run } = await import(pathToFileURL(join(here, file)).href);
  const started = Date.now();
  let result;
  try {
    result = await run({});
  } catch (error) {
    result = { name: file, passed: false, figures: { error: String(error?.stack ?? error) } };
  }
  result.seconds = Math.round((Date.now() - started) / 100) / 10;
  results.push(result);
  console.log(JSON.stringify(result, null, 2));
}
console.log('\nscenario | passed | seconds');
for (const { name, passed, seconds } of results) console.log(`${name} | ${passed} | ${seconds}`);
process.exit(results.every((result) => result.passed) ? 0 : 1);
