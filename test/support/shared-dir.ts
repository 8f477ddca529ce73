import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/**
 * The `shared/` folder beside this repository (the spec, example models and the model
 * generator): CI clones the repo with shared/ next to it. SHARED_DIR overrides it.
 */
export const SHARED_DIR =
  process.env.SHARED_DIR ?? fileURLToPath(new URL('../../../shared/', import.meta.url));

export const SHARED_MODELS_DIR = join(SHARED_DIR, 'models');
export const MODEL_GENERATOR = join(SHARED_DIR, 'tools', 'gen-model.mjs');
