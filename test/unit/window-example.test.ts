import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WINDOW_MODEL_YAML } from '../../src/models/upload/window-example.js';

// Swagger UI's upload example is the README's window model (examples/window.yaml) without
// general.code, which is unique per supplier: uploading it after the README succeeds too.
describe('the model upload example', () => {
  it('is examples/window.yaml without its code and comments', () => {
    const readme = readFileSync(new URL('../../examples/window.yaml', import.meta.url), 'utf8');
    expect(readme).toContain('  code: WIN-CASEMENT\n');
    expect(WINDOW_MODEL_YAML).not.toContain('code: WIN-CASEMENT');
    expect(WINDOW_MODEL_YAML.startsWith('general:\n')).toBe(true);
    expect(WINDOW_MODEL_YAML.length).toBeGreaterThan(readme.length / 2);
  });
});
