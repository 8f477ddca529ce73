/**
 * What the floors of bench/http-floor.mjs share with the architecture's floors
 * (bench/http-floor-stack.mjs): their configuration (the server's JSON argument, or a
 * worker thread's data), the service's copies of the libraries, the model compiled, the
 * body read, the JWT check and session read, the database reads.
 */
import { createSecretKey } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread, workerData } from 'node:worker_threads';
import { engineEntry } from './service-fixture.mjs';

export const config = isMainThread ? JSON.parse(process.argv[2]) : workerData;
// The service's own copies of the libraries, so that the floor runs the same code.
export const require = createRequire(join(config.root, 'package.json'));

/** `{"code":200,"message":…,"data":`: the envelope up to the line. */
export const envelopeHead = () =>
  Buffer.from(`{"code":200,"message":${JSON.stringify(config.message)},"data":`);

/** An answer's pieces sent as they are (no copy into one buffer). */
export function sendPieces(res, pieces) {
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': pieces.reduce((sum, piece) => sum + piece.length, 0),
  });
  for (const piece of pieces.slice(0, -1)) res.write(piece);
  res.end(pieces.at(-1));
}

/** The whole request body as text. */
export const bodyText = (req) =>
  new Promise((done, fail) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });

/** The floor's model compiled once with the checkout's engine (its dist/), and that engine. */
export async function compiledModel() {
  const engine = await import(pathToFileURL(engineEntry(config.root)));
  const { readModelSource, compileDocument, DEFAULT_ENGINE_LIMITS } = engine;
  const source = readFileSync(config.modelFile);
  const read = await readModelSource(source, config.format, DEFAULT_ENGINE_LIMITS);
  const compiled = compileDocument(read.value.document, DEFAULT_ENGINE_LIMITS);
  if (!compiled.ok) throw new Error('the model does not compile');
  return { model: compiled.model, engine };
}

/**
 * How the checkout's evaluation worker writes a line's JSON as bytes (its `jsonBytes`,
 * docs/adr/0241: in pieces, without one string of the whole), so that a floor serializes
 * as the service does; a checkout from before it, JSON.stringify and one encoding.
 */
export async function lineEncoder() {
  const module = join(config.root, 'dist', 'src', 'engine-runtime', 'tasks', 'json-encode.js');
  if (!existsSync(module)) return (value) => Buffer.from(JSON.stringify(value));
  // A Buffer of its own ArrayBuffer, as the worker transfers it.
  return (await import(pathToFileURL(module))).jsonBytes;
}

/** A function evaluating answers on the compiled model, in this thread. */
export async function evaluator() {
  const { model, engine } = await compiledModel();
  return (input) =>
    engine.evaluate(model, {
      modelId: config.modelId,
      versionNumber: config.versionNumber,
      questions: input.questions,
      languageCode: input.language_code ?? null,
      view: 'full',
    });
}

/** The two reads, on SQLite (better-sqlite3, synchronous like the service's) or PostgreSQL. */
export function openDatabase({ writable = false } = {}) {
  const sessionSql =
    'SELECT f.user_id, f.revoked_at, u.role, u.disabled_at FROM refresh_token_families f ' +
    'JOIN users u ON u.id = f.user_id WHERE f.id = ';
  const cartSql =
    'SELECT id, user_id, company_id, reference, is_default, created_at FROM carts ' +
    'WHERE user_id = ';
  const linesSql = 'SELECT company_id, currency, total FROM cart_lines WHERE cart_id = ';
  const cartByIdSql =
    'SELECT id, user_id, company_id, reference, is_default, created_at FROM carts WHERE id = ';
  const rowsSql =
    'SELECT id, model_id, version_number, company_id, language_code, answers, snapshot, ' +
    'total, currency, revision, created_at FROM cart_lines WHERE cart_id = ';
  const rowsOrder = ' ORDER BY created_at, id LIMIT ';
  const modelsSql = 'SELECT id, version_number FROM models WHERE id IN ';
  const storeSql = (n) =>
    `UPDATE cart_lines SET answers = ${n(1)}, snapshot = ${n(2)}, total = ${n(3)}, ` +
    `revision = revision + 1 WHERE id = ${n(4)} RETURNING revision`;
  if (config.databaseUrl) {
    const { Pool } = require('pg');
    const pool = new Pool({ connectionString: config.databaseUrl, max: 10 });
    return {
      session: async (id) => (await pool.query(`${sessionSql}$1`, [id])).rows[0],
      cart: async (userId) =>
        (await pool.query(`${cartSql}$1 AND is_default = true`, [userId])).rows[0],
      lines: async (cartId) => (await pool.query(`${linesSql}$1`, [cartId])).rows,
      cartById: async (id, userId) =>
        (await pool.query(`${cartByIdSql}$1 AND user_id = $2`, [id, userId])).rows[0],
      rows: async (cartId, limit) =>
        (await pool.query(`${rowsSql}$1${rowsOrder}$2`, [cartId, limit])).rows,
      versions: async (ids) => (await pool.query(`${modelsSql.slice(0, -4)}= ANY($1)`, [ids])).rows,
      store: async (id, answers, snapshot, total) =>
        (
          await pool.query(
            storeSql((i) => `$${i}`),
            [answers, snapshot, total, id],
          )
        ).rows[0].revision,
    };
  }
  const Database = require('better-sqlite3');
  const db = new Database(config.sqliteFile, { readonly: !writable });
  // As the service opens it (src/data-source-options.ts): WAL, default (FULL) synchronous.
  if (writable) db.exec('PRAGMA busy_timeout = 5000;');
  const store = writable && db.prepare(storeSql(() => '?'));
  const session = db.prepare(`${sessionSql}?`);
  const cart = db.prepare(`${cartSql}? AND is_default = 1`);
  const lines = db.prepare(`${linesSql}?`);
  const cartById = db.prepare(`${cartByIdSql}? AND user_id = ?`);
  const rows = db.prepare(`${rowsSql}?${rowsOrder}?`);
  return {
    session: async (id) => session.get(id),
    cart: async (userId) => cart.get(userId),
    lines: async (cartId) => lines.all(cartId),
    cartById: async (id, userId) => cartById.get(id, userId),
    rows: async (cartId, limit) => rows.all(cartId, limit),
    versions: async (ids) =>
      db.prepare(`${modelsSql}(${ids.map(() => '?').join(',')})`).all(...ids),
    store: async (id, answers, snapshot, total) => store.get(answers, snapshot, total, id).revision,
  };
}

/** The JWT check and session read of both GET floors: the session's row, or null. */
export function authenticator(db) {
  const jwt = require('jsonwebtoken');
  const key = createSecretKey(Buffer.from(config.jwtSecret));
  const options = {
    algorithms: ['HS256'],
    issuer: config.jwtIssuer,
    audience: config.jwtAudience,
  };
  return async (req) => {
    const header = req.headers.authorization ?? '';
    let claims;
    try {
      claims = jwt.verify(header.slice('Bearer '.length), key, options);
    } catch {
      return null;
    }
    if (claims.typ !== 'access' || !claims.fam || typeof claims.exp !== 'number') return null;
    const session = await db.session(claims.fam);
    if (!session || session.revoked_at || String(session.user_id) !== claims.sub) return null;
    return session.disabled_at ? null : session;
  };
}
