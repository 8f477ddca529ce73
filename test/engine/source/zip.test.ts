import JSZip from 'jszip';
import { beforeAll, describe, expect, it } from 'vitest';

import {
  MAX_PATH_LENGTH,
  readModelSource,
  type ModelSource,
  type SourceResult,
} from '../../../src/engine/source/index.js';
import { doorFiles, limits, makeZip, patchDeclaredSize, type ZipFiles } from './fixtures.js';

const MODEL = { 'model.yaml': 'general:\n  name: Door\n' };
const readZip = async (bytes: Buffer, overrides = {}) =>
  readModelSource(bytes, 'zip', limits(overrides));

function refusal(result: SourceResult<ModelSource>) {
  if (result.ok) throw new Error('expected a refusal');
  return result;
}
const codes = (result: SourceResult<ModelSource>) =>
  refusal(result).problems.map((problem) => problem.code);

describe('zip uploads', () => {
  it('reads the door example: root model, the imported fragment and the images', async () => {
    const result = await readZip(
      await makeZip({ ...(await doorFiles()), 'README.txt': 'not an asset' }),
    );
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const { document, fragments, assets } = result.value;
    expect(document.general).toMatchObject({ name: 'Exterior door', code: 'DOOR-EXT' });
    expect([...fragments.keys()]).toEqual(['fragments/hardware.yaml']);
    expect(fragments.get('fragments/hardware.yaml')?.questions).toHaveLength(2);
    expect([...assets.keys()].sort()).toEqual(['images/door.svg', 'images/glass-panel.svg']);
    const door = assets.get('images/door.svg');
    expect(door?.contentType).toBe('image/svg+xml');
    expect(door?.bytes.toString('utf8')).toMatch(/^<svg /);
  });

  it.each(['model.yml', 'model.json'])('accepts %s as the root model', async (name) => {
    const content = name.endsWith('.json') ? '{"general": {"name": "J"}}' : 'general: {name: J}';
    const result = await readZip(await makeZip({ [name]: content }));
    expect(result.ok && result.value.document.general).toEqual({ name: 'J' });
  });

  it('holds the root model document to uploadBytes once inflated (413, before parsing)', async () => {
    // 4 KB of YAML compresses to a few hundred bytes: the archive is far under the limit.
    const yaml = `general:\n  name: Door\n  description: "${'x'.repeat(4000)}"\n`;
    const zip = await makeZip({ 'model.yaml': yaml });
    expect(zip.length).toBeLessThan(2048);
    const refused = refusal(await readZip(zip, { uploadBytes: 2048 }));
    expect(refused.status).toBe(413);
    expect(refused.problems).toEqual([
      expect.objectContaining({ code: 'limit_exceeded', path: 'model.yaml' }),
    ]);
    expect(refused.problems[0].message).toContain('uploadBytes (2048)');
    expect((await readZip(zip, { uploadBytes: 8192 })).ok).toBe(true);
  });

  it('refuses a zip without a root model, or with several', async () => {
    expect(codes(await readZip(await makeZip({ 'sub/model.yaml': 'general: {name: x}' })))).toEqual(
      ['zip_model_file'],
    );
    const both = refusal(await readZip(await makeZip({ ...MODEL, 'model.json': '{}' })));
    expect(both.status).toBe(400);
    expect(both.problems[0].message).toContain('model.yaml, model.json');
  });

  it('reports a fragment parse error at the import that names it', async () => {
    const result = refusal(
      await readZip(
        await makeZip({
          'model.yaml': 'general: {name: x}\nimports:\n  - path: f.yaml\n',
          'f.yaml': 'questions: [\n',
        }),
      ),
    );
    expect(result.problems[0]).toMatchObject({ code: 'invalid_yaml', path: 'imports[0].path' });
    expect(result.problems[0].message).toMatch(/^f\.yaml: .*line \d+/);
  });

  it('refuses garbage that is not a zip', async () => {
    expect(codes(await readZip(Buffer.from('PK definitely not a zip')))).toEqual(['invalid_zip']);
  });

  it.each([
    ['../x.yaml', 'zip_unsafe_path'],
    ['images/../../x.svg', 'zip_unsafe_path'],
    ['/etc/passwd', 'zip_unsafe_path'],
    ['C:/x.svg', 'zip_unsafe_path'],
    ['images\\door.svg', 'zip_unsafe_path'],
    // Longer than the assets' path column (varchar(500)): a 500 on PostgreSQL before.
    [`${'a'.repeat(200)}/${'b'.repeat(200)}/${'c'.repeat(150)}/x.svg`, 'zip_unsafe_path'],
    ['nested.zip', 'zip_nested_archive'],
    ['lib/x.jar', 'zip_nested_archive'],
    ['backup.tar.gz', 'zip_nested_archive'],
  ])('refuses an entry named %s', async (name, code) => {
    const result = refusal(await readZip(await makeZip({ ...MODEL, [name]: 'x' })));
    expect(result.status).toBe(400);
    expect(result.problems).toContainEqual(expect.objectContaining({ code, path: name }));
  });

  it('accepts a path of exactly MAX_PATH_LENGTH characters', async () => {
    const name = `i/${'x'.repeat(MAX_PATH_LENGTH - 6)}.svg`;
    expect(name).toHaveLength(MAX_PATH_LENGTH);
    expect((await readZip(await makeZip({ ...MODEL, [name]: '<svg/>' }))).ok).toBe(true);
  });

  it('refuses an archive hidden under another extension by its magic bytes', async () => {
    const inner = await makeZip({ 'a.txt': 'inner' });
    expect(codes(await readZip(await makeZip({ ...MODEL, 'images/door.png': inner })))).toEqual([
      'zip_nested_archive',
    ]);
  });

  it('refuses a symbolic link entry', async () => {
    const zip = await makeZip(
      { ...MODEL, 'images/door.svg': '/etc/passwd' },
      { platform: 'UNIX', unixPermissions: { 'images/door.svg': 0o120777 } },
    );
    expect(refusal(await readZip(zip)).problems).toEqual([
      expect.objectContaining({ code: 'zip_symlink', path: 'images/door.svg' }),
    ]);
  });

  it('accepts ordinary Unix permissions', async () => {
    const zip = await makeZip(
      { ...MODEL },
      { platform: 'UNIX', unixPermissions: { 'model.yaml': 0o100644 } },
    );
    expect((await readZip(zip)).ok).toBe(true);
  });

  it('refuses duplicate entry names, also when they differ only in case', async () => {
    const zip = await makeZip({ ...MODEL, 'images/a.svg': '<svg/>', 'images/b.svg': '<svg/>' });
    // JSZip cannot write two entries with one name: rename b in place (same length).
    const renamed = Buffer.from(
      zip.toString('latin1').replaceAll('images/b.svg', 'IMAGES/a.svg'),
      'latin1',
    );
    const result = refusal(await readZip(renamed));
    expect(result.problems).toEqual([
      expect.objectContaining({ code: 'zip_duplicate_entry', path: 'IMAGES/a.svg' }),
    ]);
  });

  it('lists every problem of an archive at once', async () => {
    const zip = await makeZip({ 'model.yaml': 'x: 1', '../a': 'x', '/b': 'x', 'c.zip': 'x' });
    const paths = refusal(await readZip(zip)).problems.map(
      (problem) => `${problem.code} ${problem.path}`,
    );
    // JSZip also writes the folder entry "../" for "../a".
    expect(paths.sort()).toEqual([
      'zip_nested_archive c.zip',
      'zip_unsafe_path ../',
      'zip_unsafe_path ../a',
      'zip_unsafe_path /b',
    ]);
  });

  it('allows zipEntries entries and refuses one more with 413, counting folders', async () => {
    const files: ZipFiles = { ...MODEL, 'a.txt': 'a', 'b.txt': 'b' };
    expect((await readZip(await makeZip(files), { zipEntries: 3 })).ok).toBe(true);
    // JSZip adds the folder entry "images/" too: five entries.
    const result = refusal(
      await readZip(await makeZip({ ...files, 'images/x.svg': '<svg/>' }), { zipEntries: 4 }),
    );
    expect(result.status).toBe(413);
    expect(result.problems[0]).toMatchObject({
      code: 'limit_exceeded',
      message: expect.stringContaining('zipEntries (4)'),
    });
  });

  it('counts the entries of the central directory, not the count the end record declares', async () => {
    const zip = await makeZip({ ...MODEL, 'a.txt': 'a', 'b.txt': 'b' });
    const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    zip.writeUInt16LE(1, eocd + 8);
    zip.writeUInt16LE(1, eocd + 10);
    const result = refusal(await readZip(zip, { zipEntries: 2 }));
    expect(result.status).toBe(413);
    expect(result.problems[0].code).toBe('limit_exceeded');
  });

  it('refuses uploads over uploadBytes with 413 before opening the archive', async () => {
    const result = refusal(await readZip(Buffer.alloc(2048), { uploadBytes: 1024 }));
    expect(result.status).toBe(413);
    expect(result.problems[0].message).toContain('uploadBytes (1024)');
  });

  describe('zip bombs', () => {
    const BOMB_BYTES = 60 * 1024 * 1024;
    const LIMIT = 1024 * 1024;
    let bomb: Buffer;
    beforeAll(async () => {
      const zip = new JSZip();
      zip.file('model.yaml', 'general: {name: bomb}');
      zip.file('images/zeros.png', Buffer.alloc(BOMB_BYTES));
      bomb = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    });

    it('refuses an honest bomb from the declared sizes', async () => {
      expect(bomb.length).toBeLessThan(LIMIT / 4);
      const result = refusal(await readZip(bomb, { zipUncompressedBytes: LIMIT }));
      expect(result.status).toBe(413);
      expect(result.problems[0]).toMatchObject({
        code: 'limit_exceeded',
        message: expect.stringContaining(`zipUncompressedBytes (${LIMIT})`),
      });
    });

    it('refuses a bomb that lies about its size while inflating, stopping near the limit', async () => {
      // The declared size passes the early check, so only the count while inflating can stop it
      // (how soon it stops is a speed matter for the benchmark, not this test).
      const liar = patchDeclaredSize(bomb, 'images/zeros.png', 1000);
      const result = refusal(await readZip(liar, { zipUncompressedBytes: LIMIT }));
      expect(result.status).toBe(413);
      expect(result.problems[0]).toMatchObject({
        code: 'limit_exceeded',
        message: expect.stringContaining(`zipUncompressedBytes (${LIMIT})`),
      });
    });

    it('accepts the same lying entry when the real size is within the limit', async () => {
      const zip = new JSZip();
      zip.file('model.yaml', 'general: {name: small}');
      zip.file('images/small.png', Buffer.alloc(10_000));
      const liar = patchDeclaredSize(
        await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }),
        'images/small.png',
        10,
      );
      // JSZip notices the size mismatch after inflating: a corrupt archive, not a limit.
      expect(codes(await readZip(liar, { zipUncompressedBytes: LIMIT }))).toEqual(['invalid_zip']);
    });
  });
  describe('image limits (assetBytes each, modelAssetBytes together), unpacked', () => {
    const IMAGE = 100_000;
    const IMAGES = 250_000;
    const imageLimits = { assetBytes: IMAGE, modelAssetBytes: IMAGES };
    const zipOf = (images: Record<string, number>) =>
      makeZip({
        ...MODEL,
        ...Object.fromEntries(
          Object.entries(images).map(([name, size]) => [name, Buffer.alloc(size)]),
        ),
      });

    it('refuses an image over assetBytes from its declared size, naming it', async () => {
      const result = refusal(await readZip(await zipOf({ 'a.png': IMAGE + 1 }), imageLimits));
      expect(result.status).toBe(413);
      expect(result.problems[0]).toMatchObject({
        code: 'limit_exceeded',
        path: 'a.png',
        message: expect.stringContaining(`assetBytes (${IMAGE})`),
      });
    });

    it('refuses an image that lies about its size once its bytes pass assetBytes', async () => {
      const liar = patchDeclaredSize(await zipOf({ 'a.png': 4 * IMAGE }), 'a.png', 10);
      const result = refusal(await readZip(liar, imageLimits));
      expect(result.status).toBe(413);
      expect(result.problems[0].message).toContain(`assetBytes (${IMAGE})`);
    });

    it('refuses images over modelAssetBytes together, declared or inflated', async () => {
      const sizes = { 'a.png': IMAGE - 1, 'b.svg': IMAGE - 1, 'c.webp': IMAGE - 1 };
      const honest = refusal(await readZip(await zipOf(sizes), imageLimits));
      expect(honest.problems[0].message).toContain(`modelAssetBytes (${IMAGES})`);
      const liar = patchDeclaredSize(await zipOf(sizes), 'c.webp', 10);
      const inflated = refusal(await readZip(liar, imageLimits));
      expect(inflated.problems[0].message).toContain(`modelAssetBytes (${IMAGES})`);
    });

    it('accepts images within both limits and counts only images', async () => {
      const zip = await makeZip({
        ...MODEL,
        'a.png': Buffer.alloc(IMAGE),
        'b.png': Buffer.alloc(IMAGE),
        'notes/readme.txt': Buffer.alloc(3 * IMAGE),
      });
      const result = await readZip(zip, imageLimits);
      expect(result.ok).toBe(true);
      if (result.ok) expect([...result.value.assets.keys()].sort()).toEqual(['a.png', 'b.png']);
    });
  });
});
