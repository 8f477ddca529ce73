/**
 * The command line of `npm run bench:http` (bench/http.bench.mjs lists the options), read
 * once: every module of the benchmark takes its settings from here.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, '..');

const argv = process.argv.slice(2);
export const flag = (name) => argv.includes(`--${name}`);
/** The value of `--name`, or `fallback`. */
export const option = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 && argv[at + 1] !== undefined ? argv[at + 1] : fallback;
};
/** Every value of an option that may be given more than once (`--model a --model b`). */
const options = (name) =>
  argv.flatMap((arg, i) => (arg === `--${name}` && argv[i + 1] !== undefined ? [argv[i + 1]] : []));

const quick = flag('quick');
export const detail = flag('detail');
export const root = resolve(option('root', repo));
export const databases = option('db', quick ? 'sqlite' : 'sqlite,postgres').split(',');
/** --model <file> (repeatable): more models; --answers <file> goes with the first. */
export const customModels = options('model').map((path) => resolve(path));
export const customAnswers = option('answers', undefined);
export const sizes = [
  ...option('sizes', quick ? 'window,1000' : 'window,1000,5000')
    .split(',')
    .filter(Boolean),
  ...customModels.map((_, i) => `custom${i}`),
];
/** GET /v1/carts/{id}: its lines are of this size's model ('' or --no-cart: not measured). */
export const cartSize = flag('no-cart')
  ? ''
  : option('cart', sizes.includes('window') ? 'window' : sizes[0]);
export const duration = Number(option('duration', quick ? 2 : 5));
export const rounds = Number(option('rounds', quick ? 1 : 2));
export const connections = Number(option('connections', 4));
/** Real cars: sequential previews timed per car (random walks, sold cars). */
export const clicks = Number(option('clicks', 200));
export const seed = Number(option('seed', 42));
/**
 * Real cars: the view(s) their clicks ask for (`?view=`), `compact` (the configure page's,
 * docs/adr/0224) unless given; `--view full,compact` times both in the same run, click by
 * click in alternation (`--alternate walk`: walk by walk).
 */
export const clickViews = option('view', 'compact').split(',').filter(Boolean);
/** With several views: `click` (each click asked of every view in turn) or `walk`. */
export const alternate = option('alternate', 'click');
/**
 * Sequential previews (http-sequential.mjs): requests per target per round, and rounds;
 * `--sequential 0` leaves them out, `--sequential-only` measures nothing else per model.
 */
export const sequentialPerRound = Number(option('sequential', 25));
export const sequentialRounds = Number(option('sequential-rounds', 4));
export const pgAdminUrl = option(
  'pg',
  process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
);
export const jsonOut = option('json', null);
/** --clicks-out <prefix>: each real car's clicks, one by one, to <prefix>-<view>.json. */
export const clicksOut = option('clicks-out', null);
export const baselineRoot = option('baseline', null) === null ? null : resolve(option('baseline'));
/** Where the real cars are (renault-medium, renault-megane), as in CI: ../shared beside the checkout. */
export const benchmarksDir = resolve(
  process.env.BENCHMARKS ?? join(repo, '..', 'shared', 'benchmarks'),
);

/** The production image's NODE_OPTIONS (GC flags), so that the service runs as deployed. */
function imageNodeOptions() {
  try {
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
    return /^ENV NODE_OPTIONS="?([^"\n]*)"?$/m.exec(dockerfile)?.[1] ?? '';
  } catch {
    return '';
  }
}
export const nodeArgs = option('node-args', process.env.BENCH_NODE_ARGS ?? imageNodeOptions())
  .split(' ')
  .filter(Boolean);
/**
 * The service's environment beyond the fixture's: a deadline far past any measured
 * evaluation (under a load of 8–10 a 5,000-question add took more than the default 2 s and
 * ended the run with a 422; the deadline is bench:isolation's subject, not this one's),
 * then --env KEY=VALUE,… (e.g. a larger compiled-model cache).
 */
export const serviceEnv = {
  EVALUATION_TIMEOUT_MS: '60000',
  ...Object.fromEntries(
    option('env', '')
      .split(',')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  ),
};
