import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const ENGINE_INDEX_ONLY = {
  regex: '(^|/)engine/(?!index\\.js$)',
  message: 'Import the engine through src/engine/index.ts only.',
};

const TYPEORM_IN_REPOSITORIES = {
  regex: '^(typeorm|@nestjs/typeorm)(/|$)',
  message: 'Only repositories (*.repository.ts), entities and src/database touch TypeORM.',
};

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
          ],
        },
      ],
    },
  },
  {
    // Everything else enters the engine through its index only.
    files: ['src/**/*.ts'],
    ignores: ['src/engine/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ENGINE_INDEX_ONLY] }] },
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
        { patterns: [ENGINE_INDEX_ONLY, TYPEORM_IN_REPOSITORIES] },
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
