import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
/** Documents of the seed contract that are not part of this repository. */
const OUTSIDE = /API-v1\.md|DESIGN\.md|MODEL_FORMAT\.md/;

function filesUnder(path: string): string[] {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path).flatMap((name) => filesUnder(join(path, name)));
}

describe('the documentation is self-contained', () => {
  it('names no document the repository does not contain (src, docs, openapi.json, README.md)', () => {
    const files = ['src', 'docs', 'openapi.json', 'README.md'].flatMap((p) =>
      filesUnder(join(ROOT, p)),
    );
    const hits = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, index) => ({ line, index }))
        .filter(({ line }) => OUTSIDE.test(line))
        .map(({ index }) => `${relative(ROOT, file)}:${index + 1}`),
    );
    expect(hits).toEqual([]);
  });

  it('links only to documents that exist (docs/*.md, docs/adr/*.md, README.md)', () => {
    const docs = [join(ROOT, 'README.md'), ...filesUnder(join(ROOT, 'docs'))].filter((f) =>
      f.endsWith('.md'),
    );
    const missing: string[] = [];
    for (const file of docs) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\]\(([^)#\s]+\.md)(#[^)]*)?\)/g)) {
        const target = join(file, '..', match[1]);
        try {
          statSync(target);
        } catch {
          missing.push(`${relative(ROOT, file)} -> ${match[1]}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
