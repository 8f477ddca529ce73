/**
 * A TCP proxy that can go silent: the network of a failover or a partition as the service
 * sees it. While silent it accepts and reads, but forwards nothing and answers nothing (no
 * reset, no close: a black hole). Once restored, new connections are forwarded again, while
 * the connections of before stay silent for good (their server is gone).
 */
import { connect, createServer } from 'node:net';

export async function startSilenceableProxy(targetPort, targetHost = '127.0.0.1') {
  let generation = 0;
  let silent = false;
  const sockets = new Set();
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    const born = generation;
    // Forwards only while this connection's generation is the current one and not silent.
    const live = () => !silent && born === generation;
    if (silent) {
      client.on('data', () => undefined);
      return;
    }
    const upstream = connect(targetPort, targetHost);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.on('data', (chunk) => live() && upstream.write(chunk));
    upstream.on('data', (chunk) => live() && client.write(chunk));
    // A close while live is passed on; a silent connection never closes by itself.
    client.on('end', () => live() && upstream.end());
    upstream.on('end', () => live() && client.end());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    /** From now on nothing passes, on any connection. */
    silence() {
      silent = true;
      generation++;
    },
    /** New connections pass again; those opened before stay silent. */
    restore() {
      silent = false;
      generation++;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
