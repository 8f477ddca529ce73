/**
 * SQLite soak (not a test of its own: CI runs it for 60 s, a release check for 600 s):
 * the built service on SQLite keeps answering while its better-sqlite3 connection drops
 * prepared statements and the garbage collector runs. Three things churn at once:
 *   - TypeORM's statement cache (100 SQL texts) evicts: every tick runs SQL texts it has
 *     never seen, so older statements are dropped and become garbage;
 *   - `pragma()` calls, each preparing and dropping a statement of its own;
 *   - forced full collections (`gc()`, hence `node --expose-gc`) every 250 ms, on top of
 *     the scavenges the load causes.
 * Meanwhile a client logs in, previews the window example, adds cart lines and reads the
 * cart over HTTP on loopback. Every answer must be a 2xx (or the 409 of a full cart);
 * the process must not abort (better-sqlite3 12 on Node >= 24.19 did: docs/adr/0090).
 *
 *   npm run build && node --expose-gc scripts/soak-sqlite.mjs --seconds 600
 *
 * Prints one summary line and exits 1 on any failed request.
 */
import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1]]] : [])),
);
const seconds = Number(args.seconds ?? 600);
if (typeof globalThis.gc !== 'function') {
  console.error('run with node --expose-gc');
  process.exit(2);
}
const repo = resolve(new URL('..', import.meta.url).pathname);
const dist = (path) => import(pathToFileURL(join(repo, 'dist', 'src', path)).href);

const dataDir = mkdtempSync(join(tmpdir(), 'soak-sqlite-'));
const ADMIN = { email: 'soak@example.test', password: 'soak-password-0123' };
Object.assign(process.env, {
  NODE_ENV: 'test',
  DATA_DIR: dataDir,
  JWT_SECRET: 'a-soak-secret-that-is-long-enough-0123456789',
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  LOGIN_RATE_LIMIT: '100000',
  CART_MAX_LINES: '100000',
  LOG_LEVEL: 'error',
});
delete process.env.DATABASE_URL;

const { NestFactory } = await import('@nestjs/core');
const { DataSource } = await import('typeorm');
const { AppModule } = await dist('app.module.js');
const { configureApp } = await dist('app.setup.js');
const { sqliteConnection } = await dist('database/fixed-sql.js');

const app = await NestFactory.create(AppModule, { bodyParser: false, logger: ['error'] });
configureApp(app);
await app.listen(0, '127.0.0.1');
const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
const dataSource = app.get(DataSource);
const connection = sqliteConnection(dataSource);

const counts = { requests: 0, failed: 0, sqlTexts: 0, pragmas: 0, gcs: 0 };
const failures = [];

async function call(method, path, { token, body, type = 'application/json' } = {}) {
  counts.requests++;
  try {
    const response = await fetch(base + path, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': type } : {}),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const envelope = await response.json().catch(() => null);
    if (response.status >= 300 && response.status !== 409) {
      counts.failed++;
      failures.push(`${method} ${path}: ${response.status} ${envelope?.message ?? ''}`);
    }
    return envelope?.data;
  } catch (error) {
    counts.failed++;
    failures.push(`${method} ${path}: ${error.message}`);
    return undefined;
  }
}

// The tenant: a company, a supplier and the window example.
const login = () => call('POST', '/v1/login', { body: ADMIN });
const token = (await login()).access_token;
const company = await call('POST', '/v1/companies', {
  token,
  body: {
    email: 'buyer@example.test',
    name: 'Soak BV',
    vat_number: 'NL123456789B01',
    coc_number: '12345678',
  },
});
await call('POST', `/v1/suppliers/${company.id}`, {
  token,
  body: { email: 'sales@example.test', name: 'Soak Windows', website: 'https://example.test' },
});
const model = await call('POST', `/v1/suppliers/1/models`, {
  token,
  type: 'application/yaml',
  body: readFileSync(join(repo, 'examples', 'window.yaml'), 'utf8'),
});
const answers = (width) => ({
  width: { values: [width] },
  height: { values: [1000] },
  frame: { values: ['alu'] },
  color: { values: ['white'] },
});

// Statement churn and collections, on the service's own connection and event loop.
let sqlText = 0;
const churn = setInterval(() => {
  for (let i = 0; i < 40; i++, sqlText++) {
    dataSource.query(`SELECT ${sqlText} AS n`).catch((error) => failures.push(error.message));
    counts.sqlTexts++;
  }
  connection.pragma?.('user_version');
  counts.pragmas++;
}, 20);
const collector = setInterval(() => {
  globalThis.gc();
  counts.gcs++;
}, 250);

// The client: four loops of login, preview, add, cart read until the time is up.
const until = Date.now() + seconds * 1000;
async function client(n) {
  for (let i = 0; Date.now() < until; i++) {
    const width = 400 + ((n * 7 + i) % 200) * 10;
    if (i % 25 === 0) await login();
    await call('POST', '/v1/carts/preview', {
      token,
      body: { model_id: model.id, company_id: company.id, questions: answers(width) },
    });
    const line = await call('POST', '/v1/carts', {
      token,
      body: { model_id: model.id, company_id: company.id, questions: answers(width) },
    });
    if (line?.cart_id) await call('GET', `/v1/carts/${line.cart_id}?per_page=5`, { token });
    await call('GET', '/health/ready');
  }
}
await Promise.all([0, 1, 2, 3].map(client));

clearInterval(churn);
clearInterval(collector);
await app.close();
rmSync(dataDir, { recursive: true, force: true });
const rssMb = Math.round(process.memoryUsage().rss / 1048576);
console.log(
  `SQLite soak on Node ${process.versions.node}, ${seconds} s: ${counts.requests} requests, ` +
    `${counts.failed} failed; ${counts.sqlTexts} new SQL texts (statement cache of 100), ` +
    `${counts.pragmas} pragma() calls, ${counts.gcs} forced GCs; RSS ${rssMb} MB`,
);
for (const failure of failures.slice(0, 10)) console.log(`  ${failure}`);
process.exit(counts.failed === 0 && failures.length === 0 ? 0 : 1);
