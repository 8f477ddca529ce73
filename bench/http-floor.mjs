/**
 * The floors of `npm run bench:http` (bench/http.bench.mjs): bare `node:http` servers
 * doing the least work an answer of the service needs, run as their own process so that
 * they compete for the CPU exactly as the service does. Not part of the service.
 *
 *   send:    reads the request body, then stringifies and sends a given answer (what a
 *            preview or a POST /v1/carts cannot avoid: the answer's JSON and its bytes).
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

/** The two reads, on SQLite (better-sqlite3, synchronous like the service's) or PostgreSQL. */
function openDatabase() {
  const sessionSql =
    'SELECT f.user_id, f.revoked_at, u.role, u.disabled_at FROM refresh_token_families f ' +
    'JOIN users u ON u.id = f.user_id WHERE f.id = ';
  const cartSql =
    'SELECT id, user_id, company_id, reference, is_default, created_at FROM carts ' +
    'WHERE user_id = ';
  const linesSql = 'SELECT company_id, currency, total FROM cart_lines WHERE cart_id = ';
  if (config.databaseUrl) {
    const { Pool } = require('pg');
    const pool = new Pool({ connectionString: config.databaseUrl, max: 10 });
    return {
      session: async (id) => (await pool.query(`${sessionSql}$1`, [id])).rows[0],
      cart: async (userId) =>
        (await pool.query(`${cartSql}$1 AND is_default = true`, [userId])).rows[0],
      lines: async (cartId) => (await pool.query(`${linesSql}$1`, [cartId])).rows,
    };
  }
  const Database = require('better-sqlite3');
  const db = new Database(config.sqliteFile, { readonly: true });
  const session = db.prepare(`${sessionSql}?`);
  const cart = db.prepare(`${cartSql}? AND is_default = 1`);
  const lines = db.prepare(`${linesSql}?`);
  return {
    session: async (id) => session.get(id),
    cart: async (userId) => cart.get(userId),
    lines: async (cartId) => lines.all(cartId),
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

function defaultCartFloor() {
  const jwt = require('jsonwebtoken');
  const key = createSecretKey(Buffer.from(config.jwtSecret));
  const options = {
    algorithms: ['HS256'],
    issuer: config.jwtIssuer,
    audience: config.jwtAudience,
  };
  const db = openDatabase();
  const denied = { code: 403, message: 'Forbidden', data: null, links: {}, errors: [] };
  return async (req, res) => {
    await drain(req);
    const header = req.headers.authorization ?? '';
    let claims;
    try {
      claims = jwt.verify(header.slice('Bearer '.length), key, options);
    } catch {
      return sendJson(res, 403, denied);
    }
    if (claims.typ !== 'access' || !claims.fam || typeof claims.exp !== 'number')
      return sendJson(res, 403, denied);
    const session = await db.session(claims.fam);
    if (!session || session.revoked_at || String(session.user_id) !== claims.sub)
      return sendJson(res, 403, denied);
    if (session.disabled_at) return sendJson(res, 403, denied);
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

const handler = config.mode === 'default' ? defaultCartFloor() : sendFloor();
const server = createServer((req, res) => {
  handler(req, res).catch((error) => {
    res.statusCode = 500;
    res.end(String(error));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
