/**
 * The attacker of slow-bodies.scenario.mjs, in a process of its own so that its sockets and
 * reconnects do not delay the victim's measurements: `node slow-bodies-attacker.mjs <base>
 * <connections> <seconds>` keeps that many slow bodies open from 127.0.0.2 (each a POST with
 * an invented `Authorization`, one byte a second of a declared 100 kB), reopening any the
 * service closed RECONNECT_MS later; prints the statuses it got as JSON when the time is up.
 */
import { request } from 'node:http';

const [base, connections, seconds] = process.argv.slice(2);
const DECLARED_BYTES = 100_000;
/** An attacker reopens a closed connection after this long. */
const RECONNECT_MS = 500;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One slow body; resolves with its status (0: closed without an answer) when it ends. */
function slowBody(i, stopped) {
  return new Promise((resolve) => {
    const req = request(`${base}/v1/carts/preview`, {
      method: 'POST',
      localAddress: '127.0.0.2',
      agent: false,
      headers: {
        Authorization: `Bearer invented-${i}-${Math.random().toString(36).slice(2)}`,
        'Content-Type': 'application/json',
        'Content-Length': DECLARED_BYTES,
      },
    });
    let status = 0;
    const trickle = setInterval(() => (stopped() ? req.destroy() : req.write(' ')), 1_000);
    // Node closes the connection of a refused request once answered (its body unread).
    req.on('response', (res) => (status = res.statusCode ?? 0));
    req.on('error', () => undefined);
    req.on('close', () => {
      clearInterval(trickle);
      resolve(status);
    });
    req.write('{');
  });
}

const endAt = Date.now() + Number(seconds) * 1000;
const stopped = () => Date.now() >= endAt;
const counts = {};
await Promise.all(
  Array.from({ length: Number(connections) }, async (_, i) => {
    while (!stopped()) {
      const status = await slowBody(i, stopped);
      if (!stopped()) counts[status] = (counts[status] ?? 0) + 1;
      await sleep(RECONNECT_MS);
    }
  }),
);
console.log(JSON.stringify(counts));
