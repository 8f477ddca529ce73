import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The engine's entry points: its stages and types (src/engine/index.ts), its runtime
 * plumbing for the workers (src/engine/runtime.ts; docs/adr/0065) and the few values the
 * main thread takes (src/engine/main-thread.ts; docs/adr/0052).
 */
const ENGINE_INDEX_ONLY = {
  regex: '(^|/)engine/(?!(index|runtime|main-thread)\\.js$)',
  message:
    'Import the engine through src/engine/index.ts (runtime.ts for its plumbing, main-thread.ts for main-thread values) only.',
};

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

/**
 * Engine work runs in worker threads only (src/engine-runtime/tasks/engine-tasks.ts, through
 * CompiledModels): the main thread may use the engine's types and small helpers, never
 * compile, revive, describe or evaluate a model (docs/adr/0050-engine-worker-runtime.md).
 */
const ENGINE_WORK_IN_WORKERS = {
  regex: '(^|/)engine/(index|runtime)\\.js$',
  importNames: [
    'validateModel',
    'compileModel',
    'compileDocument',
    'evaluate',
    'evaluateConfiguration',
    'describeModel',
    'reviveModel',
    'toTransferable',
    'CompiledModelCache',
    'deserializeConsistency',
    'readModelSource',
    'mergeImports',
  ],
  message: 'Engine work runs in the engine workers (CompiledModels), never on the main thread.',
};

/**
 * The engine's index loads all of its working code: outside the workers' code the main
 * thread takes values from src/engine/main-thread.ts (whose modules reach none of it), and
 * only types from the index.
 */
const ENGINE_VALUES_FROM_MAIN_THREAD_ENTRY = {
  regex: '(^|/)engine/(index|runtime)\\.js$',
  allowTypeImports: true,
  message:
    'The main thread imports only types from src/engine/index.ts and runtime.ts; values come from src/engine/main-thread.ts.',
};

/** Where engine work may be imported: the worker's tasks, and the CLI's own process. */
const ENGINE_WORK_ALLOWED = ['src/engine-runtime/tasks/**', 'src/cli/**'];

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
    // Everything else enters the engine through its index only.
    files: ['src/**/*.ts'],
    ignores: ['src/engine/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [ENGINE_INDEX_ONLY, RUNTIME_ENTRIES_ONLY] }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/engine/**', ...ENGINE_WORK_ALLOWED],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [ENGINE_INDEX_ONLY, RUNTIME_ENTRIES_ONLY, ENGINE_WORK_IN_WORKERS] },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/engine/**', ...ENGINE_WORK_ALLOWED],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [ENGINE_VALUES_FROM_MAIN_THREAD_ENTRY] },
      ],
    },
  },
  {
    // Repositories (and entities, and the database plumbing) are the only TypeORM code.
    files: ['src/**/*.ts'],
    ignores: [
      'src/engine/**',
      'src/**/*.repository.ts',
      'src/**/*.entity.ts',
      'src/database/**',
      'src/data-source-options.ts',
      'src/cli/database.ts',
      'src/cli/services.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ENGINE_INDEX_ONLY,
            RUNTIME_ENTRIES_ONLY,
            TYPEORM_IN_REPOSITORIES,
            ENGINE_WORK_IN_WORKERS,
          ],
        },
      ],
    },
  },
  {
    // The same without the engine-work rule where engine work belongs.
    files: ENGINE_WORK_ALLOWED.map((glob) => `${glob}/*.ts`),
    ignores: ['src/cli/database.ts', 'src/cli/services.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [ENGINE_INDEX_ONLY, RUNTIME_ENTRIES_ONLY, TYPEORM_IN_REPOSITORIES] },
      ],
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
