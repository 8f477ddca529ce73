/**
 * Module boundaries checked by `npm run check:cycles` (and CI): no import cycles, neither
 * between files nor between the folders under src/ (see scripts/check-cycles.mjs).
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A file must not import itself through other files.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    includeOnly: '^src/',
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count too: a cycle of types is still a tangle of modules.
    tsPreCompilationDeps: true,
  },
};
