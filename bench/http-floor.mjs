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
 *            JSON (written as the service's worker writes it, lineEncoder) with the
 *            preview's members, in the envelope.
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
 *   worker, nest: the architecture's floors of a preview (http-floor-stack.mjs, ADR 0234).
 *
 * Configuration: one JSON argument (see http.bench.mjs); prints `listening <port>`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { promisify } from 'node:util';
import { constants, deflate, deflateSync, inflate, inflateSync } from 'node:zlib';
import {
  authenticator,
  bodyText,
  config,
  envelopeHead,
  evaluator,
  lineEncoder,
  openDatabase,
  require,
  sendPieces,
} from './http-floor-common.mjs';
import { nestFloor, workerFloor } from './http-floor-stack.mjs';

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

/**
 * The line's JSON bytes with `members` appended, in the envelope, sent: written as they are
 * between the envelope's two ends. Not one string of the whole answer: on a machine where
 * fresh memory is dear, concatenating, measuring and encoding a line of 837 kB (1,000
 * questions) again cost the floor more than the service's own evaluation (ADR 0242).
 */
function sendLine(res, bytes, members) {
  const extra = JSON.stringify(members);
  const tail = Buffer.from(`,${extra.slice(1)},"links":{},"errors":[]}`);
  sendPieces(res, [envelopeHead(), bytes.subarray(0, bytes.length - 1), tail]);
}

/** The preview's unavoidable work: parse, evaluate (same engine, same model), send. */
async function evaluateFloor() {
  const evaluated = await evaluator();
  const encoded = await lineEncoder();
  return async (req, res) => {
    const evaluation = evaluated(JSON.parse(await bodyText(req)));
    const { valid, errors, warnings } = evaluation;
    sendLine(res, encoded(evaluation.line), {
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
  const encoded = await lineEncoder();
  const db = openDatabase({ writable: true });
  return async (req, res) => {
    const input = JSON.parse(await bodyText(req));
    const lineId = Number(new URL(req.url, 'http://local').pathname.split('/').pop());
    const evaluation = evaluated(input);
    // Encoded once, as the service's worker does: the same bytes are deflated and sent.
    const bytes = encoded(evaluation.line);
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
    sendPieces(res, [
      envelopeHead(),
      bytes.subarray(0, bytes.length - 1),
      Buffer.from(`,${members.slice(1)},"links":{},"errors":[]}`),
    ]);
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
  worker: workerFloor,
  nest: nestFloor,
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
