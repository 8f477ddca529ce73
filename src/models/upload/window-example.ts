import { readFileSync } from 'node:fs';

/**
 * The README walkthrough's window model (examples/window.yaml, docs/model-format.md), as
 * the upload example of Swagger UI: executing it as it is creates a model. Without its
 * comment lines and `general.code`, which is unique per supplier, so that uploading it
 * again beside the README's copy succeeds too. The file sits three folders up from this
 * one both in the repository (src/models/upload) and in the build (dist/src/models/upload
 * beside dist/examples, copied there by scripts/build.mjs).
 */
export const WINDOW_MODEL_YAML = readFileSync(
  new URL('../../../examples/window.yaml', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter((line) => !/^ {2}code: /.test(line) && !line.startsWith('# '))
  .join('\n');
