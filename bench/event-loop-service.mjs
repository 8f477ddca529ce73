/**
 * The service side of bench/event-loop.bench.mjs: runs the built service (argv[2] is the
 * checkout) and measures its own event-loop delay and GC pauses between the client's
 * 'start' and 'stop' messages, answering the figures over IPC.
 */
import { join } from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const root = process.argv[2];
const load = (path) => import(pathToFileURL(join(root, path)).href);
const { NestFactory } = await load('node_modules/@nestjs/core/index.js');
const { AppModule } = await load('dist/src/app.module.js');
const { configureApp } = await load('dist/src/app.setup.js');

const app = await NestFactory.create(AppModule, { bodyParser: false, logger: ['error'] });
configureApp(app);
await app.listen(0);

const histogram = monitorEventLoopDelay({ resolution: 10 });
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs = Math.max(gcMs, entry.duration);
}).observe({ entryTypes: ['gc'] });

// A second, independent witness: the longest gap between 5 ms interval ticks.
let ticker;
let last = 0;
let gap = 0;
const logGapsMs = Number(process.env.BENCH_LOG_GAPS ?? 0);
process.on('message', (message) => {
  if (message === 'start') {
    histogram.reset();
    histogram.enable();
    gcMs = 0;
    gap = 0;
    last = performance.now();
    ticker = setInterval(() => {
      const now = performance.now();
      gap = Math.max(gap, now - last - 5);
      // BENCH_LOG_GAPS=ms: print each longer gap with its end on the monotonic clock
      // (microseconds, as a --cpu-prof profile's timestamps), to find it in a profile.
      if (logGapsMs && now - last - 5 > logGapsMs)
        console.error(
          `gap ${(now - last - 5).toFixed(1)} ms ending at ${process.hrtime.bigint() / 1000n} us`,
        );
      last = now;
    }, 5);
    process.send({ started: true });
  } else if (message === 'stop') {
    clearInterval(ticker);
    histogram.disable();
    process.send({
      maxMs: Math.max(histogram.max / 1e6, gap),
      p99Ms: histogram.percentile(99) / 1e6,
      gcMs,
    });
  }
});
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
process.send({ url: (await app.getUrl()).replace('[::1]', '127.0.0.1') });
