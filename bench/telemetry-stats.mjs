/**
 * The statistics of `npm run bench:telemetry` (bench/telemetry.bench.mjs): per-round ratios
 * of two variants measured in the same round, their trimmed mean and a bootstrap
 * confidence interval over the rounds, and the verdict against a goal.
 */
// The tests' seeded generator (mulberry32): the same run gives the same interval.
import { prng } from '../test/support/prng.ts';

export const median = (values) => quantile(values, 0.5);

/** Linear-interpolated quantile of `values` (0 ≤ q ≤ 1). */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const at = q * (sorted.length - 1);
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (at - low);
}

/** The mean of `values` without the lowest and highest `share` of them (each side). */
export function trimmedMean(values, share = 0.2) {
  const sorted = [...values].sort((a, b) => a - b);
  const cut = Math.floor(sorted.length * share);
  const kept = sorted.slice(cut, sorted.length - cut);
  return kept.reduce((sum, value) => sum + value, 0) / kept.length;
}

/**
 * The ratio of B to A from paired rounds (`b[i]` and `a[i]` measured in the same round):
 * the trimmed mean of the per-round log ratios, exponentiated (a ratio, symmetric for
 * B/A and A/B), and its 95 % percentile-bootstrap interval, rounds resampled with
 * replacement. Pairing takes out what a round shares (the machine's load at that moment).
 */
export function pairedRatio(b, a, { resamples = 4000, seed = 41 } = {}) {
  const logs = b.map((value, i) => Math.log(value / a[i])).filter(Number.isFinite);
  if (logs.length === 0) return { ratio: NaN, low: NaN, high: NaN, rounds: 0 };
  const next = prng(seed);
  const estimates = [];
  for (let r = 0; r < resamples; r++) {
    const sample = logs.map(() => logs[Math.floor(next() * logs.length)]);
    estimates.push(trimmedMean(sample));
  }
  return {
    ratio: Math.exp(trimmedMean(logs)),
    low: Math.exp(quantile(estimates, 0.025)),
    high: Math.exp(quantile(estimates, 0.975)),
    rounds: logs.length,
  };
}

const MIN_ROUNDS = 5;

/**
 * What an interval says about a goal. `at most`: met when the whole interval is at or
 * below the goal, missed when it is wholly above, else not shown either way. `within`
 * (the A/A control): the interval lies inside 1 ± the tolerance.
 */
export function verdict({ low, high, rounds }, goal) {
  if (!Number.isFinite(low) || !Number.isFinite(high)) return 'n/a';
  // A bootstrap over a handful of rounds gives an interval far too narrow to trust.
  if (rounds < MIN_ROUNDS) return `too few rounds (< ${MIN_ROUNDS})`;
  if (goal.within !== undefined)
    return low >= 1 - goal.within && high <= 1 + goal.within ? 'within' : 'not within: too noisy';
  if (high <= goal.atMost) return 'met';
  if (low > goal.atMost) return 'missed';
  return 'not shown';
}
