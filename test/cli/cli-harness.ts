import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { runCli } from '../../src/cli/run.js';
import { CompanyEntity } from '../../src/companies/company.entity.js';
import { AppConfig } from '../../src/config/app-config.js';
import { buildDataSourceOptions } from '../../src/data-source-options.js';
import { SupplierEntity } from '../../src/suppliers/supplier.entity.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export interface CliHarness {
  database: TestDatabase;
  env: NodeJS.ProcessEnv;
  /** Runs one command line in-process, with `stdin` as standard input. */
  cli(args: string[], stdin?: string, env?: NodeJS.ProcessEnv): Promise<CliRun>;
  /** A direct connection to the same database, opened by `connect()` once migrated. */
  db: DataSource;
  connect(): Promise<DataSource>;
  close(): Promise<void>;
}

/**
 * A fresh database (SQLite file, or a PostgreSQL database of its own with DATABASE_URL)
 * and the environment the CLI runs with. load-model boots the application, which reads
 * process.env like the service: it is set too (test files run in processes of their own).
 */
export async function createCliHarness(): Promise<CliHarness> {
  const database = await createTestDatabase();
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'test',
    DATA_DIR: database.dataDir,
    JWT_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  };
  Object.assign(process.env, env);
  delete process.env.ADMIN_EMAIL;
  delete process.env.ADMIN_PASSWORD;

  const harness: CliHarness = {
    database,
    env,
    db: new DataSource(buildDataSourceOptions(new AppConfig(env).database)),
    async cli(args, stdin = '', runEnv = env) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(args, runEnv, {
        out: (line) => out.push(line),
        err: (line) => err.push(line),
        readStdin: async () => stdin,
      });
      return { code, out: out.join('\n'), err: err.join('\n') };
    },
    async connect() {
      if (!harness.db.isInitialized) await harness.db.initialize();
      return harness.db;
    },
    async close() {
      if (harness.db.isInitialized) await harness.db.destroy();
      await database.drop();
    },
  };
  return harness;
}

export async function insertSupplier(db: DataSource, name: string): Promise<SupplierEntity> {
  const suppliers = db.getRepository(SupplierEntity);
  return suppliers.save(
    suppliers.create({
      email: `${name.toLowerCase().replace(/\W+/g, '-')}@example.test`,
      name,
      website: 'https://supplier.example.test',
      contactPerson: null,
      phoneNumber: null,
      vatNumber: null,
      cocNumber: null,
    }),
  );
}

export async function insertCompany(db: DataSource, name: string): Promise<CompanyEntity> {
  const companies = db.getRepository(CompanyEntity);
  return companies.save(
    companies.create({
      email: 'co@example.test',
      name,
      vatNumber: `VAT-${name}`,
      cocNumber: `COC-${name}`,
      phoneNumber: null,
      website: null,
      contactPerson: null,
      createdById: null,
    }),
  );
}
