/**
 * The floors of `npm run bench:http` (bench/http.bench.mjs): bare `node:http` servers
 * doing the least work an answer of the service needs, run as their own process so that
 * they compete for the CPU exactly as the service does. Not part of the service.
 *
 *   send:    reads the request body, then stringifies and sends a given answer (what a
 *            preview or a POST /v1/carts cannot avoid: the answer's JSON and its bytes).
 *   store:   PUT's floor (issue #29): the evaluate floor, then the line's full view
 *            deflated and one durable UPDATE of its row on the service's database.
 *   evaluate: the preview's floor (issue #27): parses the JSON body, runs the same
 *            evaluation in-process (the checkout's dist/src/engine, the model compiled
 *            once at start-up with compileDocument), and sends the same bytes: the line's
 *            JSON with the preview's members, in the envelope.
 *   cart:    GET /v1/carts/{id} by hand: the same JWT check and session read as `default`,
 *            the cart, all its lines' prices (the totals), the first page of its rows, each
 *            stored snapshot inflated as the service does (up to 4 kB of base64 on the
 *            event loop, where it costs less than a round trip to zlib's pool, larger ones
 *            in the pool, all at once) with the row's columns, in the envelope with the
 *            page links.
 *   default: GET /v1/carts/default by hand: the same JWT check (HS256 with a secret
 *            KeyObject, issuer, audience, expiry, typ, session family), one joined read
 *            of the session and its user, one indexed read of the default cart, one of its
 *            lines' company, currency and total (the cart's totals), and the same envelope.
 *
 * Configuration: one JSON argument (see http.bench.mjs); prints `listening <port>`.
 */
import { createSecretKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { constants, deflate, deflateSync, inflate, inflateSync } from 'node:zlib';
import { engineEntry } from './service-fixture.mjs';

const config = JSON.parse(process.argv[2]);
// The service's own copies of the libraries, so that the floor runs the same code.
const require = createRequire(join(config.root, 'package.json'));

const sendJson = (res, status, value) => {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
};

/** Resolves once the whole request body has arrived (its bytes, not parsed). */
const drain = (req) =>
  new Promise((done, fail) => {
    req.on('data', () => {});
    req.on('end', done);
    req.on('error', fail);
  });

function sendFloor() {
  const answer = JSON.parse(readFileSync(config.answerFile, 'utf8'));
  return async (req, res) => {
    await drain(req);
    sendJson(res, config.status ?? 200, answer);
  };
}

/** The whole request body as text. */
const bodyText = (req) =>
  new Promise((done, fail) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });

/** The model compiled once (the checkout's engine), and a function evaluating answers on it. */
async function evaluator() {
  const engine = await import(pathToFileURL(engineEntry(config.root)));
  const { readModelSource, compileDocument, evaluate, DEFAULT_ENGINE_LIMITS } = engine;
  const source = readFileSync(config.modelFile);
  const read = await readModelSource(source, config.format, DEFAULT_ENGINE_LIMITS);
  const compiled = compileDocument(read.value.document, DEFAULT_ENGINE_LIMITS);
  if (!compiled.ok) throw new Error('the model does not compile');
  return (input) =>
    evaluate(compiled.model, {
      modelId: config.modelId,
      versionNumber: config.versionNumber,
      questions: input.questions,
      languageCode: input.language_code ?? null,
      view: 'full',
    });
}

/** The line's JSON with `members` appended, in the envelope, sent. */
function sendLine(res, line, members) {
  const head = `{"code":200,"message":${JSON.stringify(config.message)},"data":`;
  const extra = JSON.stringify(members);
  const body = `${head}${line.slice(0, -1)},${extra.slice(1)},"links":{},"errors":[]}`;
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** The preview's unavoidable work: parse, evaluate (same engine, same model), send. */
async function evaluateFloor() {
  const evaluated = await evaluator();
  return async (req, res) => {
    const evaluation = evaluated(JSON.parse(await bodyText(req)));
    const { valid, errors, warnings } = evaluation;
    sendLine(res, JSON.stringify(evaluation.line), {
      view: 'full',
      id: null,
      valid,
      errors,
      warnings,
    });
  };
}

const deflated = promisify(deflate);

/**
 * PUT's floor (issue #29): the preview's floor, then the line stored so that it can be read
 * back without the engine: its full view deflated (fastest level; in zlib's pool past
 * 16 kB, as the service does) and one durable UPDATE of its row (answers, snapshot,
 * total, revision counted up), on the service's database. No compact view, no access
 * read: the least any PUT has to do beyond a preview.
 */
async function storeFloor() {
  const evaluated = await evaluator();
  const db = openDatabase({ writable: true });
  return async (req, res) => {
    const input = JSON.parse(await bodyText(req));
    const lineId = Number(new URL(req.url, 'http://local').pathname.split('/').pop());
    const evaluation = evaluated(input);
    // Encoded once: the same bytes are deflated and sent.
    const bytes = Buffer.from(JSON.stringify(evaluation.line));
    const options = { level: constants.Z_BEST_SPEED };
    const snapshot =
      bytes.length <= 16 * 1024 ? deflateSync(bytes, options) : await deflated(bytes, options);
    const answers = JSON.stringify(input.questions);
    const { total } = evaluation.line.pricing;
    const revision = await db.store(lineId, answers, snapshot.toString('base64'), total);
    const members = JSON.stringify({
      view: 'full',
      id: lineId,
      revision,
      warnings: evaluation.warnings,
    });
    const pieces = [
      Buffer.from(`{"code":200,"message":${JSON.stringify(config.message)},"data":`),
      bytes.subarray(0, bytes.length - 1),
      Buffer.from(`,${members.slice(1)},"links":{},"errors":[]}`),
    ];
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': pieces.reduce((sum, piece) => sum + piece.length, 0),
    });
    for (const piece of pieces.slice(0, -1)) res.write(piece);
    res.end(pieces.at(-1));
  };
}

/** The two reads, on SQLite (better-sqlite3, synchronous like the service's) or PostgreSQL. */
function openDatabase({ writable = false } = {}) {
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

/** SQLite keeps dates as text in UTC, PostgreSQL as timestamps: both become ISO strings. */
const iso = (value) =>
  (value instanceof Date ? value : new Date(`${String(value).replace(' ', 'T')}Z`)).toISOString();

/** The cart's line count, company, currency and exact total, as the service sums them. */
function summed(lines) {
  const Decimal = require('decimal.js');
  const currencies = new Set(lines.map((line) => line.currency));
  let sum = new Decimal(0);
  let scale = 0;
  for (const line of lines) {
    sum = sum.plus(line.total);
    const point = line.total.indexOf('.');
    scale = Math.max(scale, point < 0 ? 0 : line.total.length - point - 1);
  }
  const single = currencies.size === 1;
  return {
    company: lines.length > 0 ? lines[0].company_id : null,
    line_count: lines.length,
    currency: single ? lines[0].currency : null,
    total: lines.length === 0 ? '0' : single ? sum.toFixed(scale) : null,
  };
}

/** The JWT check and session read of both GET floors: the session's row, or null. */
function authenticator(db) {
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

const denied = { code: 403, message: 'Forbidden', data: null, links: {}, errors: [] };

function defaultCartFloor() {
  const db = openDatabase();
  const authenticated = authenticator(db);
  return async (req, res) => {
    await drain(req);
    const session = await authenticated(req);
    if (!session) return sendJson(res, 403, denied);
    const cart = await db.cart(session.user_id);
    if (!cart) return sendJson(res, 400, { ...denied, code: 400 });
    const { company, ...totals } = summed(await db.lines(cart.id));
    sendJson(res, 200, {
      code: 200,
      message: 'Cart found',
      data: {
        cart_id: cart.id,
        reference: cart.reference,
        default: Boolean(cart.is_default),
        company_id: cart.company_id ?? company,
        created_at: iso(cart.created_at),
        ...totals,
      },
      links: {},
      errors: [],
    });
  };
}

const inflated = promisify(inflate);

/** GET /v1/carts/{id} (first page, full view) from the rows: stored snapshots, inflated. */
function cartFloor() {
  const db = openDatabase();
  const authenticated = authenticator(db);
  const perPage = 10;
  return async (req, res) => {
    await drain(req);
    const session = await authenticated(req);
    if (!session) return sendJson(res, 403, denied);
    const url = new URL(req.url, 'http://local');
    const cart = await db.cartById(url.pathname.split('/').pop(), session.user_id);
    if (!cart) return sendJson(res, 404, { ...denied, code: 404 });
    const prices = await db.lines(cart.id);
    const rows = await db.rows(cart.id, perPage);
    const versions = new Map(
      (await db.versions([...new Set(rows.map((row) => row.model_id))])).map((m) => [
        m.id,
        m.version_number,
      ]),
    );
    const lines = await Promise.all(
      rows.map(async (row) => {
        const deflated = Buffer.from(row.snapshot, 'base64');
        const json = row.snapshot.length <= 4096 ? inflateSync(deflated) : await inflated(deflated);
        const latest = versions.get(row.model_id);
        const columns = JSON.stringify({
          view: 'full',
          id: row.id,
          model_id: row.model_id,
          version_number: row.version_number,
          company_id: row.company_id,
          language_code: row.language_code,
          total: row.total,
          currency: row.currency,
          answers: JSON.parse(row.answers),
          created_at: iso(row.created_at),
          etag: `"${row.revision}"`,
          latest_version_number: latest > row.version_number ? latest : null,
        });
        return [json.subarray(0, json.length - 1), Buffer.from(`,${columns.slice(1)}`)];
      }),
    );
    const { company, ...totals } = summed(prices);
    const byCurrency =
      totals.currency === null ? [] : [{ currency: totals.currency, total: totals.total }];
    const detail = JSON.stringify({
      cart_id: cart.id,
      reference: cart.reference,
      default: Boolean(cart.is_default),
      company_id: cart.company_id ?? company,
      created_at: iso(cart.created_at),
      ...totals,
      totals: byCurrency,
    });
    const last = Math.max(1, Math.ceil(prices.length / perPage));
    const at = (page) => `${url.pathname}?page=${page}&per_page=${perPage}`;
    const links = JSON.stringify({ self: at(1), first: at(1), last: at(last) });
    const pieces = [
      Buffer.from(`{"code":200,"message":"Cart found","data":${detail.slice(0, -1)},"lines":[`),
      ...lines.flatMap((pieces, i) => (i === 0 ? pieces : [Buffer.from(','), ...pieces])),
      Buffer.from(`]},"links":${links},"errors":[]}`),
    ];
    const body = Buffer.concat(pieces);
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': body.length,
    });
    res.end(body);
  };
}

const handlers = {
  default: defaultCartFloor,
  cart: cartFloor,
  evaluate: evaluateFloor,
  store: storeFloor,
  send: sendFloor,
};
const handler = await handlers[config.mode]();
const server = createServer((req, res) => {
  handler(req, res).catch((error) => {
    res.statusCode = 500;
    res.end(String(error));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
