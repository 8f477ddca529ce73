/**
 * `npm run bench:isolation` (issue #27): one tenant attacks, another lives beside it, on the
 * built service (SQLite in a temporary directory, loopback only, every loop bounded).
 * The attacker uploads and previews expensive models (8 choice questions x 50 options
 * with one 5,000-row allowed table; a graph-colouring model), sends 10 compiles at once
 * and 1,000 parallel previews. Meanwhile the victim probes GET /health/live and a small
 * preview every 50 ms, and uploads a small model once during the compile flood.
 * The victim is a user of its own (member of the victim company and supplier), and its
 * probes run in a process of their own (bench/isolation-victim.mjs): the attacker
 * client's event loop, busy with a thousand fetches, cannot inflate the victim's numbers.
 * Reported: victim liveness and preview latencies, attacker statuses and durations
 * against their deadline, the victim upload's status.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chainedModel, pricedSizeModel } from './faults/fault-models.mjs';
import { BENCH_ADMIN, BENCH_SERVICE_ENV, call, data, startService } from './service-fixture.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const EVALUATION_TIMEOUT_MS = 2000;
const ATTACK_LIMIT_MS = 90_000;

function tableModel(code) {
  const keys = Array.from({ length: 8 }, (_, i) => `q${i}`);
  let s = 7;
  const rnd = (n) => (
    (s = (Math.imul(s, 1664525) + 1013904223) >>> 0),
    Math.floor((s / 2 ** 32) * n)
  );
  const rows = [];
  const seen = new Set();
  while (rows.length < 5000) {
    const row = keys.map(() => `o${rnd(50)}`);
    if (seen.has(row.join())) continue;
    seen.add(row.join());
    rows.push(row);
  }
  const options = Array.from({ length: 50 }, (_, o) => ({ key: `o${o}`, label: `${o}` }));
  return {
    general: { name: `Table ${code}`, code },
    questions: keys.map((key) => ({ key, type: 'choice', label: key, options })),
    rules: [{ key: 't', message: 'incompatible', allowed: { columns: keys, rows } }],
  };
}

function colouringModel(code, nodes = 24, colours = 4) {
  let s = 11;
  const rnd = (n) => (
    (s = (Math.imul(s, 1664525) + 1013904223) >>> 0),
    Math.floor((s / 2 ** 32) * n)
  );
  const options = Array.from({ length: colours }, (_, c) => ({ key: `c${c}`, label: `C${c}` }));
  const edges = new Set();
  while (edges.size < nodes * 2) {
    const a = rnd(nodes);
    const b = rnd(nodes);
    if (a !== b) edges.add(a < b ? `${a}-${b}` : `${b}-${a}`);
  }
  return {
    general: { name: `Colouring ${code}`, code },
    questions: Array.from({ length: nodes }, (_, i) => ({
      key: `n${i}`,
      type: 'choice',
      label: `Node ${i}`,
      options,
    })),
    rules: [...edges].map((edge, i) => {
      const [a, b] = edge.split('-');
      return { key: `e${i}`, assert: `n${a} == null || n${a} != n${b}`, message: 'same colour' };
    }),
  };
}

/** A compile of seconds: 300 questions in a ring of rules (fault-models.mjs). */
const slowCompileModel = (code) => chainedModel(code, 300);

/**
 * A company and a supplier of it, made by the admin (a member of the company as its
 * creator, made one of the supplier); `member` joins both.
 */
async function tenant(base, token, me, name, member) {
  const company = await data(base, 'POST', '/v1/companies', {
    token,
    body: JSON.stringify({
      email: `${name}@bench.test`,
      name,
      vat_number: `NL-${name}`,
      coc_number: `COC-${name}`,
    }),
  });
  const supplier = await data(base, 'POST', `/v1/suppliers/${company.id}`, {
    token,
    body: JSON.stringify({
      email: `s-${name}@bench.test`,
      name: `S ${name}`,
      website: 'https://b.test',
    }),
  });
  await data(base, 'POST', `/v1/suppliers/${supplier.id}/members`, {
    token,
    body: JSON.stringify({ user_id: me.id }),
  });
  if (member) {
    await data(base, 'POST', `/v1/companies/${company.id}/members`, {
      token,
      body: JSON.stringify({ user_id: member.id }),
    });
    await data(base, 'POST', `/v1/suppliers/${supplier.id}/members`, {
      token,
      body: JSON.stringify({ user_id: member.id }),
    });
  }
  return { company, supplier };
}

const timed = async (work) => {
  const started = performance.now();
  const res = await work();
  return { status: res.status, ms: performance.now() - started };
};
const upload = (base, token, supplier, model) =>
  call(base, 'POST', `/v1/suppliers/${supplier.id}/models`, { token, body: JSON.stringify(model) });
const preview = (base, token, company, modelId, questions) =>
  call(base, 'POST', '/v1/carts/preview', {
    token,
    body: JSON.stringify({ model_id: modelId, company_id: company.id, questions }),
  });
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
const summary = (values) =>
  `n=${values.length} p50=${quantile(values, 0.5).toFixed(1)} p99=${quantile(values, 0.99).toFixed(1)} max=${Math.max(...values).toFixed(1)} ms`;
const statuses = (results) => {
  const counts = {};
  for (const { status } of results) counts[status] = (counts[status] ?? 0) + 1;
  return JSON.stringify(counts);
};

const dataDir = mkdtempSync(join(tmpdir(), 'isolation-bench-'));
let probe = null;
try {
  const service = await startService(root, {
    ...BENCH_SERVICE_ENV,
    DATA_DIR: dataDir,
    EVALUATION_TIMEOUT_MS: String(EVALUATION_TIMEOUT_MS),
    // For A/B runs: e.g. CLIENT_IN_FLIGHT_LIMIT=100000 turns the admission stage's limit off.
    ...Object.fromEntries(
      ['CLIENT_IN_FLIGHT_LIMIT', 'SERVER_IN_FLIGHT_LIMIT']
        .filter((name) => process.env[name])
        .map((name) => [name, process.env[name]]),
    ),
  });
  const { base } = service;
  const { access_token: token } = await data(base, 'POST', '/v1/login', {
    body: JSON.stringify(BENCH_ADMIN),
  });
  const me = await data(base, 'GET', '/v1/users/me', { token });
  const attacker = await tenant(base, token, me, 'attacker');
  // The victim: a member user of its own, with its own token.
  const victimLogin = { email: 'victim@bench.test', password: 'victim-bench-password' };
  const victimUser = await data(base, 'POST', '/v1/users', {
    token,
    body: JSON.stringify({ ...victimLogin, role: 'member' }),
  });
  const victim = await tenant(base, token, me, 'victim', victimUser);
  const { access_token: victimToken } = await data(base, 'POST', '/v1/login', {
    body: JSON.stringify(victimLogin),
  });
  const small = await upload(base, victimToken, victim.supplier, pricedSizeModel('V0'));
  const smallId = JSON.parse(small.text).data.id;

  // The victim's probes, every 50 ms until the attack ends (bounded by ATTACK_LIMIT_MS),
  // in a process of their own; `phases` (start times) sorts their results afterwards.
  probe = fork(join(root, 'bench', 'isolation-victim.mjs'), [
    JSON.stringify({
      base,
      token: victimToken,
      companyId: victim.company.id,
      modelId: smallId,
      limitMs: ATTACK_LIMIT_MS,
    }),
  ]);
  probe.on('exit', (code) => code && console.error(`victim probes exited with ${code}`));
  const [ready] = await once(probe, 'message');
  if (ready !== 'ready') throw new Error(`victim probes: ${JSON.stringify(ready)}`);
  const probed = new Promise((resolve) =>
    probe.on('message', (message) => message.probes && resolve(message.probes)),
  );
  /** What the attacker is doing, from when, for the probes' worst latencies per phase. */
  const phases = [];
  const enter = (name) => phases.push({ name, from: Date.now() });
  enter('table uploads');

  const attack = [];
  const started = Date.now();
  // Expensive uploads, then previews of them.
  const table = await timed(() => upload(base, token, attacker.supplier, tableModel('T1')));
  const tableRes = await upload(base, token, attacker.supplier, tableModel('T2'));
  const colour = await upload(base, token, attacker.supplier, colouringModel('G1'));
  attack.push({ kind: 'table upload', ...table });
  const ids = [];
  for (const res of [tableRes, colour])
    if (res.status === 201) ids.push(JSON.parse(res.text).data.id);
  enter('expensive previews');
  for (let round = 0; round < 6; round++) {
    const results = await Promise.all(
      ids.flatMap((id) => [
        timed(() => preview(base, token, attacker.company, id, {})),
        timed(() =>
          preview(base, token, attacker.company, id, {
            q0: { values: ['o1'] },
            n0: { values: ['c1'] },
          }),
        ),
      ]),
    );
    for (const r of results) attack.push({ kind: 'expensive preview', ...r });
  }
  // Ten compiles at once; the victim uploads once during the flood.
  enter('compile flood');
  const flood = Array.from({ length: 10 }, (_, i) =>
    timed(() => upload(base, token, attacker.supplier, slowCompileModel(`F${i}`))),
  );
  await new Promise((done) => setTimeout(done, 200));
  const victimUpload = await timed(() =>
    upload(base, victimToken, victim.supplier, pricedSizeModel('V1')),
  );
  for (const r of await Promise.all(flood)) attack.push({ kind: 'compile flood', ...r });
  // 1,000 parallel previews of a cheap attacker model.
  enter('parallel previews');
  const cheap = await upload(base, token, attacker.supplier, pricedSizeModel('A0'));
  const cheapId = JSON.parse(cheap.text).data.id;
  const burst = await Promise.all(
    Array.from({ length: 1000 }, () =>
      timed(() => preview(base, token, attacker.company, cheapId, { size: { values: ['s'] } })),
    ),
  );
  for (const r of burst) attack.push({ kind: 'parallel preview', ...r });
  // The probes stop by themselves after ATTACK_LIMIT_MS (then the channel is closed).
  if (probe.connected) probe.send('stop');
  const probes = await probed;
  const phaseAt = (at) => phases.findLast((p) => p.from <= at)?.name ?? phases[0].name;
  const live = probes.filter((r) => r.kind === 'live').map((r) => ({ ...r, phase: phaseAt(r.at) }));
  const previews = probes
    .filter((r) => r.kind === 'preview')
    .map((r) => ({ ...r, phase: phaseAt(r.at) }));

  console.log(`attack ran ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(
    `victim GET /health/live: ${summary(live.map((r) => r.ms))} statuses ${statuses(live)}`,
  );
  console.log(
    `victim small preview:    ${summary(previews.map((r) => r.ms))} statuses ${statuses(previews)}`,
  );
  for (const name of [
    'table uploads',
    'expensive previews',
    'compile flood',
    'parallel previews',
  ]) {
    const at = (list) => list.filter((r) => r.phase === name).map((r) => r.ms);
    console.log(`  during ${name}: live ${summary(at(live))}; preview ${summary(at(previews))}`);
  }
  console.log(
    `victim upload during the compile flood: ${victimUpload.status} in ${victimUpload.ms.toFixed(0)} ms`,
  );
  for (const kind of ['table upload', 'expensive preview', 'compile flood', 'parallel preview']) {
    const runs = attack.filter((r) => r.kind === kind);
    console.log(`attacker ${kind}: ${summary(runs.map((r) => r.ms))} statuses ${statuses(runs)}`);
  }
  const previewsPastDeadline = attack.filter(
    (r) => r.kind === 'expensive preview' && r.ms > EVALUATION_TIMEOUT_MS + 500,
  );
  console.log(`expensive previews past deadline + 500 ms: ${previewsPastDeadline.length}`);
  service.child.kill('SIGTERM');
} finally {
  probe?.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
