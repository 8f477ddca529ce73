import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join, resolve } from 'node:path';
import supertest from 'supertest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type HttpContext } from './test-app.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = join(ROOT, 'dist/src/main.js');

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
 * Starts `dist/src/main.js` (built first when missing or older than src/) with PORT=0 and
 * waits for its "Listening on" line. Attacks are replayed against this process, so what
 * they measure (event-loop stalls, heap, worker threads) is the real service's.
 */
export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  await ensureBuilt();
  const database: TestDatabase = await createTestDatabase();
  const { DATABASE_URL: _server, ...inherited } = process.env;
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: {
      ...inherited,
      NODE_ENV: 'test',
      PORT: '0',
      DATA_DIR: database.dataDir,
      JWT_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LOGIN_RATE_LIMIT: '1000',
      LOG_LEVEL: 'log',
      SWAGGER_ENABLED: 'false',
      ...(database.url ? { DATABASE_URL: database.url } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const baseUrl = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${String(code)}:\n${output}`));
    });
  });
  return {
    baseUrl,
    child,
    http: supertest.agent(baseUrl),
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await exited;
      }
      await database.drop();
    },
  };
}

/** Newest modification time of any file under `dir`. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/**
 * Builds dist/ when it is missing or older than src/ (`npm run build`), once: test files
 * run in parallel, so a lock folder makes the others wait for the one that builds.
 */
async function ensureBuilt(): Promise<void> {
  const lock = join(ROOT, 'dist-build.lock');
  const fresh = () => existsSync(MAIN) && statSync(MAIN).mtimeMs >= newest(join(ROOT, 'src'));
  while (!fresh()) {
    try {
      mkdirSync(lock);
    } catch {
      await new Promise((done) => setTimeout(done, 500));
      continue;
    }
    try {
      if (!fresh()) {
        const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
        execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT });
        // tsc leaves unchanged outputs alone: mark the build as current.
        const now = new Date();
        utimesSync(MAIN, now, now);
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
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
