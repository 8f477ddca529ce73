// Lets a worker thread run src/ from its TypeScript sources (the tests' app has no dist/):
// passed as `--import` to the engine workers through ENGINE_WORKER_LOADER (worker-setup.ts).
import { existsSync, readFileSync } from 'node:fs';
import { registerHooks, stripTypeScriptTypes } from 'node:module';
import { fileURLToPath } from 'node:url';

registerHooks({
  // `./x.js` resolves to `./x.ts` when only that exists.
  resolve(specifier, context, nextResolve) {
    const parent = context.parentURL ?? '';
    if (parent.endsWith('.ts') && specifier.startsWith('.') && specifier.endsWith('.js')) {
      const candidate = new URL(specifier.replace(/\.js$/, '.ts'), parent);
      if (existsSync(fileURLToPath(candidate)))
        return { url: candidate.href, format: 'module', shortCircuit: true };
    }
    return nextResolve(specifier, context);
  },
  // `.ts` files through Node's own transform (WebAssembly): not SWC's native addon, which
  // crashes the process when a worker running it is terminated (a deadline).
  load(url, context, nextLoad) {
    if (!url.endsWith('.ts')) return nextLoad(url, context);
    const source = readFileSync(fileURLToPath(url), 'utf8');
    // Without its "experimental feature" warning in every worker of every test.
    const emitWarning = process.emitWarning;
    process.emitWarning = () => undefined;
    try {
      const code = stripTypeScriptTypes(source, { mode: 'transform' });
      return { format: 'module', source: code, shortCircuit: true };
    } finally {
      process.emitWarning = emitWarning;
    }
  },
});
