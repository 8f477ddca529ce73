/**
 * Fault scenario "large images" (issue 39, assets; ADR 0162): the built service on SQLite
 * in a temporary directory (or `options.databaseUrl`, a PostgreSQL database of its own).
 *   1. 32 concurrent anonymous GETs of a 10 MB image by its signed URL, `options.rounds`
 *      times: `/health/live` p99 (probed every 10 ms by a process of its own) must stay
 *      ≤ 100 ms and the service's RSS grow ≤ 100 MB (peak during the GETs over before).
 *   2. A small zip whose images unpack to 48 MB (refused early: images over
 *      MODEL_IMAGES_LIMIT), and one whose 30 MB of images are stored: `/health/live`'s
 *      worst answer during each upload.
 * Runnable alone: `npm run build && node bench/faults/large-images.scenario.mjs`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { data } from '../service-fixture.mjs';
import { sizeModel } from './fault-models.mjs';
import { percentile, ROOT, runAlone, startFaultService } from './fault-support.mjs';
const IMAGE_BYTES = 10_000_000;
const CONCURRENT = 32;
const GOALS = { liveP99Ms: 100, rssGrowthMb: 100 };

/** Probes /health/live every 10 ms in its own process until stdin closes; prints the times. */
const PROBE = `
const base = process.argv[1];
const times = [];
let running = true;
process.stdin.on('end', () => (running = false)).resume();
while (running) {
  const started = performance.now();
  try { const res = await fetch(base + '/health/live'); await res.arrayBuffer(); } catch {}
  times.push(performance.now() - started);
  await new Promise((done) => setTimeout(done, 10));
}
process.stdout.write(JSON.stringify(times));
`;

function startProbe(base) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', PROBE, base], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  return {
    stop: async () => {
      child.stdin.end();
      // 'close', not 'exit': the process may exit before its stdout has been read.
      await new Promise((done) => child.once('close', done));
      return JSON.parse(output || '[]');
    },
  };
}

/** RSS of a process, MB (/proc: Linux only). */
function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

async function zipOf(root, model, images) {
  const JSZip = createRequire(join(root, 'package.json'))('jszip');
  const zip = new JSZip();
  zip.file('model.json', JSON.stringify(model));
  for (const [path, bytes] of Object.entries(images)) zip.file(path, bytes);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

function modelShowing(code, paths) {
  return sizeModel(code, {
    images: paths.map((src, i) => ({ key: `i${i}`, src, layer: i, alt: src })),
  });
}

async function upload(base, token, supplierId, zip) {
  const res = await fetch(`${base}/v1/suppliers/${supplierId}/models`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/zip' },
    body: zip,
  });
  const body = await res.json();
  return { status: res.status, body };
}

const CURL = spawnSync('curl', ['--version']).status === 0;

/**
 * Downloads a URL, counting its bytes without keeping them: by curl when there is one
 * (a tenth of fetch's CPU, which would otherwise compete with the service on one machine).
 */
async function download(url) {
  if (CURL) {
    const child = spawn('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code} %{size_download}',
      url,
    ]);
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    // 'close', not 'exit': the process may exit before its stdout has been read.
    await new Promise((done) => child.once('close', done));
    const [status, bytes] = output.split(' ').map(Number);
    return { status, bytes };
  }
  const res = await fetch(url);
  let bytes = 0;
  for await (const chunk of res.body) bytes += chunk.length;
  return { status: res.status, bytes };
}

/**
 * The service's own event-loop delay since the last scrape (prom-client resets its
 * histogram on each): p99 and max in ms. Unlike the probe's round trips, it does not
 * count the time a loaded machine leaves the prober itself waiting.
 */
async function loopDelay(base) {
  const text = await (await fetch(`${base}/metrics`)).text();
  const seconds = (name) =>
    Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([\\d.e+-]+)$`, 'm').exec(text)?.[1]);
  return {
    p99Ms: Math.round(seconds('nodejs_eventloop_lag_p99_seconds') * 1000),
    maxMs: Math.round(seconds('nodejs_eventloop_lag_max_seconds') * 1000),
  };
}

/** Runs `work` with liveness probed and the service's RSS sampled every 20 ms. */
async function measured(base, pid, work) {
  await loopDelay(base);
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
  const probe = startProbe(base);
  await new Promise((done) => setTimeout(done, 300));
  const started = performance.now();
  const result = await work();
  const ms = Math.round(performance.now() - started);
  await new Promise((done) => setTimeout(done, 100));
  const live = await probe.stop();
  clearInterval(sampler);
  const loop = await loopDelay(base);
  return {
    result,
    ms,
    loopP99Ms: loop.p99Ms,
    loopMaxMs: loop.maxMs,
    liveP99Ms: Math.round(percentile(live, 99) ?? NaN),
    liveMaxMs: Math.round(Math.max(...live)),
    rssGrowthMb: Math.round(peak - before),
  };
}

export default async function run(options = {}) {
  const root = options.root ?? ROOT;
  const rounds = options.rounds ?? 2;
  const service = await startFaultService(
    'images',
    {
      // The 32 GETs come from one loopback address, standing in for 32 browsers.
      CLIENT_IN_FLIGHT_LIMIT: '64',
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    },
    { root },
  );
  try {
    const { base, tenant } = service;
    const pid = service.child.pid;
    const photo = randomBytes(IMAGE_BYTES);
    const stored = await upload(
      base,
      tenant.token,
      tenant.supplier.id,
      await zipOf(root, modelShowing('PHOTO', ['images/photo.png']), {
        'images/photo.png': photo,
      }),
    );
    if (stored.status !== 201) throw new Error(`upload: ${JSON.stringify(stored.body)}`);
    const line = await data(base, 'POST', '/v1/carts/preview', {
      token: tenant.token,
      body: JSON.stringify({
        model_id: stored.body.data.id,
        company_id: tenant.company.id,
        questions: { size: { values: ['s'] } },
      }),
    });
    const signed = `${base}${line.images[0].url}`;

    const gets = [];
    for (let round = 0; round < rounds; round++) {
      gets.push(
        await measured(base, pid, () =>
          Promise.all(Array.from({ length: CONCURRENT }, () => download(signed))),
        ),
      );
    }
    const complete = gets.every(({ result }) =>
      result.every((res) => res.status === 200 && res.bytes === IMAGE_BYTES),
    );

    // 5 images of 9.6 MB each (48 MB), each of one repeated byte: a zip of ~50 KB.
    const bomb = await zipOf(
      root,
      modelShowing(
        'BOMB',
        [0, 1, 2, 3, 4].map((i) => `images/b${i}.png`),
      ),
      Object.fromEntries(
        [0, 1, 2, 3, 4].map((i) => [`images/b${i}.png`, Buffer.alloc(9_600_000, i + 1)]),
      ),
    );
    const refused = await measured(base, pid, () =>
      upload(base, tenant.token, tenant.supplier.id, bomb),
    );
    // 3 images of 10 MB (30 MB) within the limits: unpacked, hashed, moved and written.
    const accepted = await zipOf(
      root,
      modelShowing(
        'THIRTY',
        [0, 1, 2].map((i) => `images/t${i}.png`),
      ),
      Object.fromEntries(
        [0, 1, 2].map((i) => [`images/t${i}.png`, Buffer.alloc(IMAGE_BYTES, i + 7)]),
      ),
    );
    const stores = await measured(base, pid, () =>
      upload(base, tenant.token, tenant.supplier.id, accepted),
    );

    const worstGet = {
      liveP99Ms: Math.max(...gets.map((g) => g.liveP99Ms)),
      rssGrowthMb: Math.max(...gets.map((g) => g.rssGrowthMb)),
    };
    return {
      name: 'large-images',
      passed:
        complete &&
        worstGet.liveP99Ms <= GOALS.liveP99Ms &&
        worstGet.rssGrowthMb <= GOALS.rssGrowthMb &&
        refused.result.status === 413 &&
        stores.result.status === 201,
      figures: {
        goals: GOALS,
        database: options.databaseUrl ? 'postgres' : 'sqlite',
        concurrentGets: CONCURRENT,
        imageBytes: IMAGE_BYTES,
        gets: gets.map(({ ms, liveP99Ms, liveMaxMs, loopP99Ms, loopMaxMs, rssGrowthMb }) => ({
          ms,
          liveP99Ms,
          liveMaxMs,
          loopP99Ms,
          loopMaxMs,
          rssGrowthMb,
        })),
        everyGetComplete: complete,
        // `status:bytes` of each GET that was not a complete 200.
        incompleteGets: gets.flatMap(({ result }) =>
          result
            .filter((res) => res.status !== 200 || res.bytes !== IMAGE_BYTES)
            .map((res) => `${res.status}:${res.bytes}`),
        ),
        upload48MbImages: {
          zipBytes: bomb.length,
          status: refused.result.status,
          ms: refused.ms,
          liveMaxMs: refused.liveMaxMs,
          loopMaxMs: refused.loopMaxMs,
        },
        upload30MbImages: {
          zipBytes: accepted.length,
          status: stores.result.status,
          ms: stores.ms,
          liveP99Ms: stores.liveP99Ms,
          liveMaxMs: stores.liveMaxMs,
          loopMaxMs: stores.loopMaxMs,
        },
      },
    };
  } finally {
    await service.stop();
  }
}

await runAlone(import.meta.url, run);
