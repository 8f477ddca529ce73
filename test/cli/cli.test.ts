import 'reflect-metadata';
import { verify } from '@node-rs/argon2';
import yaml from 'js-yaml';
import JSZip from 'jszip';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { CompanyMemberEntity } from '../../src/companies/company-member.entity.js';
import { CompanyEntity } from '../../src/companies/company.entity.js';
import { AppConfig } from '../../src/config/app-config.js';
import { buildDataSourceOptions } from '../../src/database/data-source-options.js';
import { ModelVersionEntity } from '../../src/models/model-version.entity.js';
import { ModelEntity } from '../../src/models/model.entity.js';
import { SupplierMemberEntity } from '../../src/suppliers/supplier-member.entity.js';
import { SupplierEntity } from '../../src/suppliers/supplier.entity.js';
import { UserEntity } from '../../src/users/user.entity.js';
import { minimalModel } from '../support/model.factories.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

interface Run {
  code: number;
  out: string;
  err: string;
}

describe('cli: npm run cli -- <command>', () => {
  let database: TestDatabase;
  let env: NodeJS.ProcessEnv;
  let db: DataSource;

  const cli = async (args: string[], stdin = ''): Promise<Run> => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(args, env, {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      readStdin: async () => stdin,
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    env = {
      NODE_ENV: 'test',
      DATA_DIR: database.dataDir,
      JWT_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    };
    // load-model boots the application, which reads process.env (this file's process only).
    Object.assign(process.env, env);
    delete process.env.ADMIN_EMAIL;
    delete process.env.ADMIN_PASSWORD;
  });
  afterAll(async () => {
    if (db?.isInitialized) await db.destroy();
    await database?.drop();
  });

  it('applies the migrations of a fresh database once', async () => {
    const first = await cli(['migrate']);
    expect(first).toEqual(expect.objectContaining({ code: 0, err: '' }));
    expect(first.out).toMatch(/^Applied InitialSchema\d+/);
    const second = await cli(['migrate']);
    expect(second).toEqual({ code: 0, out: 'No pending migrations', err: '' });
    // The schema is in place: the tests below read and write it directly.
    db = new DataSource(buildDataSourceOptions(new AppConfig(env).database));
    await db.initialize();
    expect(await db.getRepository(UserEntity).count()).toBe(0);
  });

  it('prints usage for help (exit 0), no command or an unknown one (exit 2)', async () => {
    const help = await cli(['help']);
    expect(help.code).toBe(0);
    for (const name of [
      'create-admin',
      'create-user',
      'add-supplier-member',
      'add-company-member',
      'migrate',
      'load-model',
    ]) {
      expect(help.out).toContain(name);
    }
    expect((await cli([])).code).toBe(2);
    const unknown = await cli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('Unknown command "frobnicate"');
    const commandHelp = await cli(['create-user', '--help']);
    expect(commandHelp.code).toBe(0);
    expect(commandHelp.out).toContain('--role admin|member');
  });

  it('refuses bad usage with exit 2 and the command usage', async () => {
    const missing = await cli(['create-admin', '--password', 'long-enough-1']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('--email is required');
    expect(missing.err).toContain('Usage: npm run cli -- create-admin');
    const unknownFlag = await cli(['create-admin', '--email', 'a@b.test', '--colour', 'x']);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.err).toContain("Unknown option '--colour'");
    const both = await cli([
      'create-user',
      '--email',
      'a@b.test',
      '--password',
      'x',
      '--password-stdin',
    ]);
    expect(both.code).toBe(2);
    expect(both.err).toContain('exactly one of --password and --password-stdin');
    const badRole = await cli([
      'create-user',
      '--email',
      'a@b.test',
      '--password',
      'long-enough-1',
      '--role',
      'root',
    ]);
    expect(badRole.code).toBe(2);
    const invalid = await cli(['create-user', '--email', 'not-an-email', '--password', 'short']);
    expect(invalid.code).toBe(2);
    expect(invalid.err).toMatch(/Invalid user: .*email.*password/);
    expect(await db.getRepository(UserEntity).count()).toBe(0);
  });

  it('creates an admin whose password verifies, and refuses a duplicate email (exit 1)', async () => {
    const res = await cli([
      'create-admin',
      '--email',
      'Root@Example.test',
      '--password',
      'admin-pass-123',
      '--name',
      'Root',
    ]);
    expect(res).toEqual(expect.objectContaining({ code: 0, err: '' }));
    expect(res.out).toMatch(/^Created admin #\d+ root@example\.test$/);
    const admin = await db
      .getRepository(UserEntity)
      .findOneByOrFail({ email: 'root@example.test' });
    expect(admin).toEqual(expect.objectContaining({ role: 'admin', name: 'Root' }));
    expect(admin.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verify(admin.passwordHash, 'admin-pass-123')).toBe(true);

    const again = await cli([
      'create-user',
      '--email',
      'root@example.test',
      '--password',
      'other-pass-123',
    ]);
    expect(again.code).toBe(1);
    expect(again.err).toContain('A user with that email exists');
  });

  it('creates members by default and admins with --role, reading --password-stdin', async () => {
    const member = await cli(
      ['create-user', '--email', 'dana@example.test', '--password-stdin'],
      'dana-pass-123\n',
    );
    expect(member.code).toBe(0);
    expect(member.out).toMatch(/^Created member #\d+ dana@example\.test$/);
    const stored = await db
      .getRepository(UserEntity)
      .findOneByOrFail({ email: 'dana@example.test' });
    expect(await verify(stored.passwordHash, 'dana-pass-123')).toBe(true);

    const admin = await cli([
      'create-user',
      '--email',
      'ops@example.test',
      '--password',
      'ops-pass-1234',
      '--role',
      'admin',
    ]);
    expect(admin.out).toMatch(/^Created admin #\d+ ops@example\.test$/);
  });

  it('adds supplier and company members by user id or email, idempotently', async () => {
    const supplier = await db.getRepository(SupplierEntity).save(
      db.getRepository(SupplierEntity).create({
        email: 'sup@example.test',
        name: 'Acme Doors',
        website: 'https://acme.example.test',
        contactPerson: null,
        phoneNumber: null,
        vatNumber: null,
        cocNumber: null,
      }),
    );
    const company = await db.getRepository(CompanyEntity).save(
      db.getRepository(CompanyEntity).create({
        email: 'co@example.test',
        name: 'Dealer BV',
        vatNumber: 'NL-CLI-1',
        cocNumber: 'COC-CLI-1',
        phoneNumber: null,
        website: null,
        contactPerson: null,
        createdById: null,
      }),
    );
    const dana = await db.getRepository(UserEntity).findOneByOrFail({ email: 'dana@example.test' });

    const added = await cli([
      'add-supplier-member',
      '--supplier',
      String(supplier.id),
      '--user',
      'DANA@example.test',
    ]);
    expect(added).toEqual({
      code: 0,
      out: `Added #${dana.id} dana@example.test to supplier #${supplier.id} Acme Doors`,
      err: '',
    });
    const again = await cli([
      'add-supplier-member',
      '--supplier',
      String(supplier.id),
      '--user',
      String(dana.id),
    ]);
    expect(again.code).toBe(0);
    expect(again.out).toContain('already a member');
    expect(await db.getRepository(SupplierMemberEntity).countBy({ supplierId: supplier.id })).toBe(
      1,
    );

    const toCompany = await cli([
      'add-company-member',
      '--company',
      String(company.id),
      '--user',
      String(dana.id),
    ]);
    expect(toCompany.code).toBe(0);
    expect(toCompany.out).toContain(`to company #${company.id} Dealer BV`);
    expect(
      await db
        .getRepository(CompanyMemberEntity)
        .findOneBy({ companyId: company.id, userId: dana.id }),
    ).not.toBeNull();

    const noSupplier = await cli([
      'add-supplier-member',
      '--supplier',
      '99999',
      '--user',
      String(dana.id),
    ]);
    expect(noSupplier).toEqual(
      expect.objectContaining({ code: 1, err: 'Error: No supplier with id 99999' }),
    );
    const noUser = await cli([
      'add-company-member',
      '--company',
      String(company.id),
      '--user',
      'ghost@example.test',
    ]);
    expect(noUser).toEqual(
      expect.objectContaining({ code: 1, err: 'Error: No user with email ghost@example.test' }),
    );
    const badId = await cli(['add-company-member', '--company', 'abc', '--user', '1']);
    expect(badId.code).toBe(2);
    expect(badId.err).toContain('--company must be a positive integer id');
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

  it('loads JSON, YAML and zip model files for a supplier through the models service', async () => {
    const supplier = await db.getRepository(SupplierEntity).findOneByOrFail({ name: 'Acme Doors' });
    const admin = await db
      .getRepository(UserEntity)
      .findOneByOrFail({ email: 'root@example.test' });
    const dana = await db.getRepository(UserEntity).findOneByOrFail({ email: 'dana@example.test' });
    const jsonFile = join(database.dataDir, 'casement.json');
    writeFileSync(jsonFile, JSON.stringify(minimalModel('CLI-JSON', 'Casement')));
    const yamlFile = join(database.dataDir, 'door.yml');
    writeFileSync(yamlFile, yaml.dump(minimalModel('CLI-YAML', 'Door')));
    const zipFile = join(database.dataDir, 'gate.zip');
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

    const models = await db
      .getRepository(ModelEntity)
      .find({ where: { supplierId: supplier.id }, order: { id: 'ASC' } });
    expect(models.map((m) => [m.name, m.code, m.versionNumber])).toEqual([
      ['Casement', 'CLI-JSON', 1],
      ['Door', 'CLI-YAML', 1],
      ['Gate', 'CLI-ZIP', 1],
    ]);
    const versions = await db.getRepository(ModelVersionEntity).find({ order: { modelId: 'ASC' } });
    expect(versions.map((v) => [v.sourceFormat, v.createdById])).toEqual([
      ['json', admin.id],
      ['yaml', dana.id],
      ['zip', admin.id],
    ]);
  });

  it('lists every problem of an invalid model and stores nothing (exit 1)', async () => {
    const supplier = await db.getRepository(SupplierEntity).findOneByOrFail({ name: 'Acme Doors' });
    const before = await db.getRepository(ModelEntity).count();
    const file = join(database.dataDir, 'broken.yaml');
    writeFileSync(file, 'general: {}\nquestions: [{key: 1}]\n');
    const res = await cli(['load-model', '--supplier', String(supplier.id), '--file', file]);
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/^Error: The model is invalid\n {2}- /);
    expect(res.err.split('\n').length).toBeGreaterThan(2);
    expect(await db.getRepository(ModelEntity).count()).toBe(before);

    const noSupplier = await cli(['load-model', '--supplier', '99999', '--file', file]);
    expect(noSupplier).toEqual(
      expect.objectContaining({ code: 1, err: 'Error: No supplier with id 99999' }),
    );
  });

  it('reports a bad environment without a stack trace (exit 1)', async () => {
    const saved = env;
    env = { ...env, PORT: 'not-a-port' };
    try {
      const res = await cli(['migrate']);
      expect(res.code).toBe(1);
      expect(res.err).toContain('PORT must be an integer');
      expect(res.err).not.toMatch(/\n\s+at /);
    } finally {
      env = saved;
    }
  });
});
