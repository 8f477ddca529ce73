/**
 * The victim of `npm run bench:isolation`, in a process of its own (forked by
 * bench/isolation.bench.mjs): the attacker's thousand requests run on another event loop
 * and cannot delay these probes' timers or their answers' reading, so what is measured is
 * the service. Every 50 ms: GET /health/live and a small preview, with the victim's own
 * token, until the parent says `stop` (or ATTACK_LIMIT_MS), after three unrecorded rounds.
 * Each probe goes back as {kind, at (epoch ms when sent), ms, status}; the parent sorts
 * them into its phases.
 */
const { base, token, companyId, modelId, limitMs } = JSON.parse(process.argv[2]);

async function timed(kind, url, init) {
  const at = Date.now();
  const started = performance.now();
  let status = 0;
  try {
    const res = await fetch(url, init);
    await res.arrayBuffer();
    status = res.status;
  } catch {
    status = 'error';
  }
  return { kind, at, ms: performance.now() - started, status };
}

const previewInit = {
  method: 'POST',
  headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
  body: JSON.stringify({
    model_id: modelId,
    company_id: companyId,
    questions: { size: { values: ['l'] } },
  }),
};

let probing = true;
process.on('message', (message) => {
  if (message === 'stop') probing = false;
});

const round = () =>
  Promise.all([
    timed('live', `${base}/health/live`),
    timed('preview', `${base}/v1/carts/preview`, previewInit),
  ]);
// Unrecorded: a fresh process's first fetches load and compile its HTTP client (~1 s at
// load 10), which is the client's time, not the service's.
for (let i = 0; i < 3; i++) await round();
process.send('ready');

const probes = [];
const until = Date.now() + limitMs;
while (probing && Date.now() < until) {
  probes.push(...(await round()));
  await new Promise((done) => setTimeout(done, 50));
}
process.send({ probes }, () => process.exit(0));
