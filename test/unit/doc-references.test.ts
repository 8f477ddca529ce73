import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SOURCES = ['src', 'docs', 'README.md', 'bench/README.md', 'scripts', 'web/src'];

/** A repository path as docs and comments write it: `src/carts/stored-line.ts`, `docs/adr/`. */
const PATH =
  /(?<![\w./-])((?:src|docs|test|bench|scripts|tools|web|deploy|examples)\/[\w./-]*[\w/])/g;
/**
 * ADRs named by number: "ADR 0065", "ADRs 0120", "docs/adr/0065", and the numbers listed
 * after one: "ADRs 0212, 0214 and 0216", "docs/adr/0140–0142", "docs/adr/0053-….md, 0150".
 */
const ADR =
  /\b(?:ADRs?\s|adr\/)(\d{4})((?:[\w.-]*\.md)?(?:(?:,\s*|\s*[–-]\s*|\s(?:and|or)\s)\d{4}\b)*)/g;
/**
 * Lines that name paths which are not files of this tree on purpose: a file's past content
 * (`git show <commit>:path`), a Kubernetes resource (`deploy/<name>`), a pattern or a
 * placeholder.
 */
const NOT_A_FILE = /git (show|log)|kubectl|deploy\/configurator|[*<{…]/;

function filesUnder(path: string): string[] {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path).flatMap((name) => filesUnder(join(path, name)));
}

/** A superseded ADR describes designs that are gone, with the names they had. */
function superseded(file: string, text: string): boolean {
  return file.includes('/docs/adr/') && /^Status: Superseded/m.test(text);
}

function exists(path: string): boolean {
  // Compiled names in comments (`stored-line.js`) and imports name a .ts source.
  return existsSync(join(ROOT, path)) || existsSync(join(ROOT, path.replace(/\.js$/, '.ts')));
}

function brokenReferences(): string[] {
  const adrs = new Set(readdirSync(join(ROOT, 'docs/adr')).map((name) => name.slice(0, 4)));
  const files = SOURCES.flatMap((p) => filesUnder(join(ROOT, p))).filter((f) =>
    /\.(md|ts|mjs|js)$/.test(f),
  );
  const broken: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    if (superseded(file, text)) continue;
    text.split('\n').forEach((line, index) => {
      const where = `${relative(ROOT, file)}:${index + 1}`;
      for (const match of line.matchAll(ADR))
        for (const adr of [match[1], ...(match[2].match(/\b\d{4}\b/g) ?? [])])
          if (!adrs.has(adr)) broken.push(`${where} ADR ${adr}`);
      if (NOT_A_FILE.test(line)) return;
      for (const match of line.matchAll(PATH)) {
        const path = match[1].replace(/\/$/, '');
        if (/^docs\/adr\/\d{4}$/.test(path)) continue; // an ADR number, checked above
        if (!exists(path)) broken.push(`${where} ${path}`);
      }
    });
  }
  return broken;
}

describe('docs and comments name what exists', () => {
  it('every repository path named in docs, READMEs, comments and scripts exists, and every ADR number', () => {
    expect(brokenReferences()).toEqual([]);
  });

  it('cites no issue numbers in the code (a comment says why, not which ticket)', () => {
    const files = ['src', 'web/src', 'scripts'].flatMap((p) => filesUnder(join(ROOT, p)));
    const cited = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, index) => ({ line, index }))
        // "#28", "issue 28", "Until #28"; not a colour (#fff) nor another project's issue (node#123)
        .filter(({ line }) => /(?<![\w&/-])#\d{1,3}\b(?![\w-])|\bissues? #?\d+\b/i.test(line))
        .map(({ index }) => `${relative(ROOT, file)}:${index + 1}`),
    );
    expect(cited).toEqual([]);
  });
});
