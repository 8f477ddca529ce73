import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import JSZip from 'jszip';

/** The repository's root: tests read only what the repository holds. */
export const REPO_DIR = fileURLToPath(new URL('../../', import.meta.url));

/** The example models (examples/): the window, the door source folder, the table-driven model. */
export const EXAMPLES_DIR = join(REPO_DIR, 'examples');
export const WINDOW_YAML_PATH = join(EXAMPLES_DIR, 'window.yaml');
export const DOOR_DIR = join(EXAMPLES_DIR, 'door');
export const DOOR_FILES = [
  'model.yaml',
  'fragments/hardware.yaml',
  'images/door.svg',
  'images/glass-panel.svg',
] as const;
export const TABLE_MODEL_PATH = join(EXAMPLES_DIR, 'sliding-door.yaml');

/** The model generator (tools/gen-model.mjs). */
export const MODEL_GENERATOR = join(REPO_DIR, 'tools', 'gen-model.mjs');

/**
 * Every file under `dir` zipped in memory (as tools/zip-model.mjs does on disk), entries
 * named by their path inside it; `replace` swaps the content of some entries.
 */
export async function zipFolder(
  dir: string,
  replace: Record<string, string | Buffer> = {},
): Promise<Buffer> {
  const zip = new JSZip();
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else zip.file(relative(dir, path).split(sep).join('/'), readFileSync(path));
    }
  };
  walk(dir);
  for (const [name, content] of Object.entries(replace)) zip.file(name, content);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}
