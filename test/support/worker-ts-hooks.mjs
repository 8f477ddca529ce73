// The module hooks of worker-ts-loader.mjs (module.register runs them off the worker's
// thread): `./x.js` imported from a `.ts` file resolves to `./x.ts` when only that exists,
// and `.ts` files load through Node's own type stripping (WebAssembly), not SWC's native
// addon, which crashes the process when a worker running it is terminated (a deadline).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { stripTypeScriptTypes } from 'node:module';
import { fileURLToPath } from 'node:url';

export async function resolve(specifier, context, nextResolve) {
  const parent = context.parentURL ?? '';
  if (parent.endsWith('.ts') && specifier.startsWith('.') && specifier.endsWith('.js')) {
    const candidate = new URL(specifier.replace(/\.js$/, '.ts'), parent);
    if (existsSync(fileURLToPath(candidate)))
      return { url: candidate.href, format: 'module', shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.endsWith('.ts')) return nextLoad(url, context);
  const source = await readFile(fileURLToPath(url), 'utf8');
  // Without its "experimental feature" warning in every worker of every test.
  const emitWarning = process.emitWarning;
  process.emitWarning = () => undefined;
  try {
    const code = stripTypeScriptTypes(source, { mode: 'transform' });
    return { format: 'module', source: code, shortCircuit: true };
  } finally {
    process.emitWarning = emitWarning;
  }
}
