import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, describe, expect, it } from 'vitest';
import { DOOR_DIR, DOOR_FILES, REPO_DIR, TABLE_MODEL_PATH } from '../support/examples.js';
import { compileOk, evaluate, loadYaml, question, windowDocument } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'examples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('examples/', () => {
  it('the window compiles and a documented configuration is valid', () => {
    const model = compileOk(windowDocument());
    const line = evaluate(model, { width: 1200, height: 1000, frame: 'alu', color: 'white' });
    expect(line.errors).toEqual([]);
    expect(line.valid).toBe(true);
  });

  it('the table-driven sliding door offers only track options that fit', () => {
    const model = compileOk(loadYaml(TABLE_MODEL_PATH));
    const partial = evaluate(model, { width_class: 'w1800', panels: 2 });
    const tracks = question(partial, 'track').options ?? [];
    expect(tracks.find((o) => o.key === 'triple')).toMatchObject({
      available: false,
      unavailable_because: ['track_fits_opening'],
    });
    expect(tracks.find((o) => o.key === 'double')?.available).toBe(true);
    const full = evaluate(model, { width_class: 'w3600', panels: 4, track: 'double' });
    expect(full.errors).toEqual([]);
    // 400 base + 380 width + 90 track + 4 × 310 panels + 2 × 45 rails
    expect(full.line.pricing.total).toBe('2200.00');
    const refused = evaluate(model, { width_class: 'w1800', panels: 4, track: 'single' });
    expect(refused.valid).toBe(false);
  });

  it('tools/zip-model.mjs zips the door folder with its fragment and images', async () => {
    const out = join(dir, 'door.zip');
    execFileSync(process.execPath, [join(REPO_DIR, 'tools/zip-model.mjs'), DOOR_DIR, out]);
    const zip = await JSZip.loadAsync(readFileSync(out));
    const files = Object.keys(zip.files).filter((name) => !zip.files[name].dir);
    expect(files.sort()).toEqual([...DOOR_FILES].sort());
  });
});
