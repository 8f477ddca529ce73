import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/**
 * Runtime dependencies that no file of src/ imports, because another package loads them:
 * TypeORM's SQLite driver (better-sqlite3) and @nestjs/passport's peer (passport).
 */
const LOADED_BY_ANOTHER = new Set(['better-sqlite3', 'passport']);
/** Development tools src/ loads only when run as one (`npm run openapi`: client-types.ts). */
const DEV_TOOLS = new Set(['openapi-typescript']);

function filesUnder(path: string): string[] {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path).flatMap((name) => filesUnder(join(path, name)));
}

/** The packages the files import (`pkg` of `pkg/sub`, `@scope/pkg` of `@scope/pkg/sub`). */
function importedPackages(folders: string[]): Set<string> {
  const specifier = /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s+)'([^'.][^']*)'/gm;
  const names = new Set<string>();
  for (const file of folders.flatMap((f) => filesUnder(join(ROOT, f)))) {
    if (!/\.(ts|mjs|js)$/.test(file)) continue;
    for (const [, name] of readFileSync(file, 'utf8').matchAll(specifier)) {
      // Not a package: node's own modules, and text that only looks like an import.
      if (name.startsWith('node:') || !/^(@[\w.-]+\/)?[\w-][\w.-]*(\/|$)/.test(name)) continue;
      const parts = name.split('/');
      names.add(name.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
    }
  }
  return names;
}

describe('package.json declares what the code imports, and nothing else', () => {
  it('every package src/ imports is a dependency, and every dependency is imported', () => {
    const imported = importedPackages(['src']);
    const declared = Object.keys(pkg.dependencies);
    expect(
      [...imported].filter((name) => !declared.includes(name) && !DEV_TOOLS.has(name)),
    ).toEqual([]);
    expect(declared.filter((name) => !imported.has(name) && !LOADED_BY_ANOTHER.has(name))).toEqual(
      [],
    );
  });

  it('every package the tests, scripts, tools and pages import is declared', () => {
    const imported = importedPackages(['test', 'scripts', 'tools', 'web/src', 'bench']);
    const declared = { ...pkg.dependencies, ...pkg.devDependencies };
    expect([...imported].filter((name) => !(name in declared))).toEqual([]);
  });
});
