import yaml from 'js-yaml';
import JSZip from 'jszip';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelVersionEntity } from '../../src/models/model-version.entity.js';
import { ModelEntity } from '../../src/models/model.entity.js';
import type { SupplierEntity } from '../../src/suppliers/supplier.entity.js';
import { UserEntity } from '../../src/users/user.entity.js';
import { REPO_DIR } from '../support/examples.js';
import { minimalModel } from '../support/model.factories.js';
import { createCliHarness, insertSupplier, type CliHarness } from './cli-harness.js';

describe('cli: load-model', () => {
  let harness: CliHarness;
  let supplier: SupplierEntity;
  let admin: UserEntity;
  let dana: UserEntity;
  const cli = (args: string[], stdin?: string) => harness.cli(args, stdin);

  beforeAll(async () => {
    harness = await createCliHarness();
    const adminRun = await cli([
      'create-admin',
      '--email',
      'root@example.test',
      '--password',
      'admin-pass-123',
    ]);
    const memberRun = await cli([
      'create-user',
      '--email',
      'dana@example.test',
      '--password',
      'dana-pass-123',
    ]);
    expect([adminRun.code, memberRun.code]).toEqual([0, 0]);
    const db = await harness.connect();
    admin = await db.getRepository(UserEntity).findOneByOrFail({ email: 'root@example.test' });
    dana = await db.getRepository(UserEntity).findOneByOrFail({ email: 'dana@example.test' });
    supplier = await insertSupplier(db, 'Acme Doors');
  });
  afterAll(() => harness?.close());

  it('loads JSON, YAML and zip model files for a supplier through the models service', async () => {
    const jsonFile = join(harness.database.dataDir, 'casement.json');
    writeFileSync(jsonFile, JSON.stringify(minimalModel('CLI-JSON', 'Casement')));
    const yamlFile = join(harness.database.dataDir, 'door.yml');
    writeFileSync(yamlFile, yaml.dump(minimalModel('CLI-YAML', 'Door')));
    const zipFile = join(harness.database.dataDir, 'gate.zip');
    const zip = new JSZip().file('model.yaml', yaml.dump(minimalModel('CLI-ZIP', 'Gate')));
    writeFileSync(zipFile, await zip.generateAsync({ type: 'nodebuffer' }));

    const json = await cli(['load-model', '--supplier', String(supplier.id), '--file', jsonFile]);
    expect(json.err).toBe('');
    expect(json.code).toBe(0);
    expect(json.out).toMatch(
      new RegExp(
        `^Created model #\\d+ "Casement" version 1 for supplier #${supplier.id} Acme Doors \\(uploaded as #${admin.id} root@example\\.test\\)$`,
      ),
    );
    const byYaml = await cli([
      'load-model',
      '--supplier',
      String(supplier.id),
      '--file',
      yamlFile,
      '--as',
      dana.email,
    ]);
    expect(byYaml.code).toBe(0);
    expect(byYaml.out).toContain(`"Door" version 1`);
    expect(byYaml.out).toContain(`(uploaded as #${dana.id} dana@example.test)`);
    const byZip = await cli(['load-model', '--supplier', String(supplier.id), '--file', zipFile]);
    expect(byZip.code).toBe(0);

    const models = await harness.db
      .getRepository(ModelEntity)
      .find({ where: { supplierId: supplier.id }, order: { id: 'ASC' } });
    expect(models.map((m) => [m.name, m.code, m.versionNumber])).toEqual([
      ['Casement', 'CLI-JSON', 1],
      ['Door', 'CLI-YAML', 1],
      ['Gate', 'CLI-ZIP', 1],
    ]);
    const versions = await harness.db
      .getRepository(ModelVersionEntity)
      .find({ order: { modelId: 'ASC' } });
    expect(versions.map((v) => [v.sourceFormat, v.createdById])).toEqual([
      ['json', admin.id],
      ['yaml', dana.id],
      ['zip', admin.id],
    ]);
  });

  it('check-models compiles every stored version: exit 0, or 1 listing those refused', async () => {
    const window = join(REPO_DIR, 'examples', 'window.yaml');
    const loaded = await cli(['load-model', '--supplier', String(supplier.id), '--file', window]);
    expect(loaded.code).toBe(0);
    const id = /Created model #(\d+)/.exec(loaded.out)?.[1];
    const versions = await harness.db.getRepository(ModelVersionEntity).count();

    const passing = await cli(['check-models']);
    expect(passing).toEqual({ code: 0, out: `All ${versions} stored versions compile`, err: '' });

    // A release whose checks are stricter, as a lower expression cost limit here.
    const stricter = { ...harness.env, MODEL_EXPRESSION_COST_LIMIT: '100' };
    const refused = await harness.cli(['check-models'], '', stricter);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain(`Model #${id} version 1 no longer compiles:`);
    expect(refused.out).toMatch(/^ {2}- \S+: .*cost/m);
    expect(refused.err).toMatch(/^Error: \d+ of \d+ stored versions no longer compile$/);

    // A row that cannot be read at all is listed too, and the others are still checked.
    const at = harness.db.options.type === 'postgres' ? ['$1', '$2'] : ['?', '?'];
    await harness.db.query(
      `UPDATE "model_versions" SET "definition_deflated" = ${at[0]} WHERE "model_id" = ${at[1]}`,
      [Buffer.from('not deflated'), Number(id)],
    );
    const unreadable = await cli(['check-models']);
    expect(unreadable.code).toBe(1);
    expect(unreadable.out).toMatch(
      new RegExp(`^Model #${id} version 1 no longer compiles:\n {2}- cannot be read: `),
    );
    expect(unreadable.err).toBe(`Error: 1 of ${versions} stored versions no longer compile`);
  });

  it('lists every problem of an invalid model and stores nothing (exit 1)', async () => {
    const before = await harness.db.getRepository(ModelEntity).count();
    const file = join(harness.database.dataDir, 'broken.yaml');
    writeFileSync(file, 'general: {}\nquestions: [{key: 1}]\n');
    const res = await cli(['load-model', '--supplier', String(supplier.id), '--file', file]);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/^Error: The model is invalid\n {2}- /);
    expect(res.err.split('\n').length).toBeGreaterThan(2);
    expect(await harness.db.getRepository(ModelEntity).count()).toBe(before);

    const noSupplier = await cli(['load-model', '--supplier', '99999', '--file', file]);
    expect(noSupplier).toEqual(
      expect.objectContaining({ code: 1, err: 'Error: No supplier with id 99999' }),
    );
  });

  it('refuses a model file of an unknown kind or that cannot be read', async () => {
    const kind = await cli(['load-model', '--supplier', '1', '--file', 'model.txt']);
    expect(kind.code).toBe(2);
    expect(kind.err).toContain('--file must end in .json, .yaml, .yml or .zip');
    const missing = await cli([
      'load-model',
      '--supplier',
      '1',
      '--file',
      '/nonexistent/model.yaml',
    ]);
    expect(missing).toEqual(
      expect.objectContaining({ code: 1, err: 'Error: Cannot read /nonexistent/model.yaml' }),
    );
  });

  it('needs an admin to record as uploader when --as is not given', async () => {
    const empty = await createCliHarness();
    try {
      const file = join(empty.database.dataDir, 'model.json');
      writeFileSync(file, JSON.stringify(minimalModel('CLI-NOADMIN')));
      await empty.cli(['migrate']);
      const other = await insertSupplier(await empty.connect(), 'Lonely Supplier');
      const res = await empty.cli(['load-model', '--supplier', String(other.id), '--file', file]);
      expect(res.code).toBe(1);
      expect(res.err).toContain('No admin exists to record as uploader');
    } finally {
      await empty.close();
    }
  });
});
