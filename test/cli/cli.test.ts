import { verify } from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompanyMemberEntity } from '../../src/memberships/company-member.entity.js';
import { SupplierMemberEntity } from '../../src/memberships/supplier-member.entity.js';
import { UserEntity } from '../../src/users/user.entity.js';
import { createCliHarness, insertCompany, insertSupplier, type CliHarness } from './cli-harness.js';

describe('cli: users, memberships, migrations, usage', () => {
  let harness: CliHarness;
  const cli = (args: string[], stdin?: string) => harness.cli(args, stdin);
  const users = () => harness.db.getRepository(UserEntity);

  beforeAll(async () => {
    harness = await createCliHarness();
  });
  afterAll(() => harness?.close());

  it('applies the migrations of a fresh database once', async () => {
    const first = await cli(['migrate']);
    expect(first).toEqual(expect.objectContaining({ code: 0, err: '' }));
    expect(first.out).toMatch(/^Applied InitialSchema\d+/);
    const second = await cli(['migrate']);
    expect(second).toEqual({ code: 0, out: 'No pending migrations', err: '' });
    // The schema is in place: the tests below read and write it directly.
    await harness.connect();
    expect(await users().count()).toBe(0);
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
    expect(await users().count()).toBe(0);
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
    const admin = await users().findOneByOrFail({ email: 'root@example.test' });
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
    const stored = await users().findOneByOrFail({ email: 'dana@example.test' });
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
    const supplier = await insertSupplier(harness.db, 'Acme Doors');
    const company = await insertCompany(harness.db, 'Dealer BV');
    const dana = await users().findOneByOrFail({ email: 'dana@example.test' });

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
    expect(
      await harness.db.getRepository(SupplierMemberEntity).countBy({ supplierId: supplier.id }),
    ).toBe(1);

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
      await harness.db
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

  it('reports a bad environment without a stack trace (exit 1)', async () => {
    const res = await harness.cli(['migrate'], '', { ...harness.env, PORT: 'not-a-port' });
    expect(res.code).toBe(1);
    expect(res.err).toContain('PORT must be an integer');
    expect(res.err).not.toMatch(/\n\s+at /);
  });
});
