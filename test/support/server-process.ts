import type { ChildProcess } from 'node:child_process';
import supertest from 'supertest';
import { ensureBuilt, startBuiltServer } from './built-server.js';
import { testEnv, type HttpContext } from './test-app.js';
import { createTestDatabase } from './test-database.js';

/** The built server running as a child process on a free port, on a database of its own. */
export interface ServerProcess extends HttpContext {
  baseUrl: string;
  child: ChildProcess;
  /** Everything the process wrote (for failure messages). */
  output(): string;
  alive(): boolean;
  close(): Promise<void>;
}

/**
 * Starts `dist/src/main.js` (built first when stale) with the test configuration plus
 * `env`, and the HTTP factories' agent on it. Attacks are replayed against this process,
 * so what they measure (event-loop stalls, heap, worker threads) is the real service's.
 */
export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  ensureBuilt();
  const database = await createTestDatabase();
  const server = await startBuiltServer(
    // No SHUTDOWN_DELAY unless a test asks: stopping a server would wait for it.
    testEnv(database, { LOG_LEVEL: 'warn', SWAGGER_ENABLED: 'false', SHUTDOWN_DELAY: '0', ...env }),
    database.dataDir,
  );
  const { child } = server;
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    baseUrl: server.url,
    child,
    http: supertest.agent(server.url),
    output: server.output,
    alive,
    close: async () => {
      if (alive()) {
        child.kill('SIGTERM');
        await server.exited;
      }
      await database.drop();
    },
  };
}

/**
 * Polls `/health/live` every 25 ms while `work` runs and returns the slowest answer
 * (ms): a stalled event loop shows here first.
 */
export async function slowestLiveness<T>(
  server: ServerProcess,
  work: () => Promise<T>,
): Promise<{ result: T; slowestMs: number; elapsedMs: number }> {
  let running = true;
  let slowestMs = 0;
  const probe = async () => {
    while (running) {
      const started = performance.now();
      const res = await fetch(`${server.baseUrl}/health/live`);
      await res.arrayBuffer();
      slowestMs = Math.max(slowestMs, performance.now() - started);
      await new Promise((done) => setTimeout(done, 25));
    }
  };
  const probing = probe();
  const started = performance.now();
  try {
    const result = await work();
    return { result, slowestMs, elapsedMs: performance.now() - started };
  } finally {
    running = false;
    await probing;
  }
}
