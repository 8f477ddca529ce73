import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The engine's two entry files (docs/adr/0200): src/engine/index.ts for the main thread (every
 * type, and values whose modules reach no engine work) and src/engine/work.ts (the stages
 * and the runtime plumbing) for the code that runs engine work.
 */
const ENGINE_ENTRIES_ONLY = {
  regex: '(^|/)engine/(?!(index|work)\\.js$)',
  message:
    'Import the engine through src/engine/index.ts (or work.ts, where engine work runs) only.',
};

/**
 * Engine work runs in worker threads (docs/adr/0050-engine-worker-runtime.md): only the
 * workers' tasks and the CLI's own process import src/engine/work.ts.
 */
const ENGINE_WORK_IN_WORKERS = {
  regex: '(^|/)engine/work\\.js$',
  message:
    'Engine work runs in the engine workers (CompiledModels); the main thread imports src/engine/index.ts.',
};
const ENGINE_WORK_ALLOWED = ['src/engine/**', 'src/engine-runtime/tasks/**', 'src/cli/**'];

/**
 * The engine runtime (src/engine-runtime, docs/adr/0181) is reached through its module,
 * its service and its port; its pools, queues and workers' tasks stay inside. Its own
 * files import each other by `./` and `../`, which this does not match.
 */
const RUNTIME_ENTRIES_ONLY = {
  regex:
    '(^|/)engine-runtime/(?!(engine-runtime\\.module|compiled-models\\.service|stored-versions\\.port|asset-urls|asset-url-signer|definition-bytes)\\.js$)',
  message:
    'Reach the engine runtime through engine-runtime.module.ts, compiled-models.service.ts or stored-versions.port.ts (docs/adr/0181).',
};

const TYPEORM_IN_REPOSITORIES = {
  regex: '^(typeorm|@nestjs/typeorm)(/|$)',
  message: 'Only repositories (*.repository.ts), entities and src/database touch TypeORM.',
};
const TYPEORM_ALLOWED = [
  'src/**/*.repository.ts',
  'src/**/*.entity.ts',
  'src/database/**',
  'src/data-source-options.ts',
  'src/cli/database.ts',
  'src/cli/services.ts',
];

export default tseslint.config(
  { ignores: ['dist/**', 'dist-bench/**', 'coverage/**', 'node_modules/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'off',
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // The engine is plain TypeScript: no framework, ORM or HTTP package may reach it.
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^(@nestjs/|typeorm|express|passport|class-validator|class-transformer|rxjs|ioredis|pg$|better-sqlite3|multer|prom-client)',
              message: 'src/engine is plain TypeScript: no framework or database imports.',
            },
            {
              // The allow-list of what the engine may import besides itself (docs/adr/0065).
              regex:
                '^(?!\\.|(@marcbachmann/cel-js|re2js|decimal\\.js|js-yaml|jszip|node:(crypto|stream|v8|zlib))$)',
              message:
                'src/engine imports only its allow-list (cel-js, re2js, decimal.js, js-yaml, jszip, node:crypto/stream/v8/zlib); extend it in eslint.config.js and ADR 0065.',
            },
          ],
        },
      ],
      // No state of the engine's own (docs/adr/0124): what it derives lives on the object
      // it derives from (src/engine/derived.ts), not in a module-level table or variable.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'NewExpression[callee.name=/^Weak(Map|Set)$/]',
          message: 'Keep derived state on its owner (src/engine/derived.ts), not in a WeakMap.',
        },
        {
          selector: ':matches(Program, ExportNamedDeclaration) > VariableDeclaration[kind="let"]',
          message: 'src/engine holds no module-level mutable state (docs/adr/0124).',
        },
        {
          selector:
            ':matches(Program, ExportNamedDeclaration) > VariableDeclaration > VariableDeclarator > NewExpression[callee.name=/^(Map|Set)$/][arguments.length=0]',
          message:
            'An empty module-level Map or Set is a cache: keep it on its owner (src/engine/derived.ts).',
        },
      ],
    },
  },
  {
    // Outside the engine: its entry files, the runtime's, and TypeORM in repositories only.
    files: ['src/**/*.ts'],
    ignores: ['src/engine/**', ...TYPEORM_ALLOWED],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [ENGINE_ENTRIES_ONLY, RUNTIME_ENTRIES_ONLY, TYPEORM_IN_REPOSITORIES] },
      ],
    },
  },
  {
    files: TYPEORM_ALLOWED,
    rules: {
      'no-restricted-imports': ['error', { patterns: [ENGINE_ENTRIES_ONLY, RUNTIME_ENTRIES_ONLY] }],
    },
  },
  {
    // A rule of its own (typescript-eslint's), so it adds to the one above instead of replacing it.
    files: ['src/**/*.ts'],
    ignores: ENGINE_WORK_ALLOWED,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [ENGINE_WORK_IN_WORKERS] }],
    },
  },
  {
    // Tests read deep JSON answers; typing every one of them would say nothing more.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['bench/**/*.{ts,mjs}', 'src/cli/**/*.ts', 'scripts/**/*.{js,mjs}', 'tools/**/*.mjs'],
    rules: { 'no-console': 'off' },
  },
  {
    // The browser pages (web/): bundled for browsers, never run by Node.
    files: ['web/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
