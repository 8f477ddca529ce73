import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO_DIR } from './examples.js';
import { freePort, waitForPort } from './processes.js';

/** Compiles dist/ unless it is current (scripts/build.mjs --if-stale). */
export function ensureBuilt(): void {
  execFileSync(process.execPath, [join(REPO_DIR, 'scripts', 'build.mjs'), '--if-stale'], {
    stdio: 'inherit',
  });
}

export interface BuiltServer {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  exited: Promise<number | null>;
}

/** `node dist/src/main.js` as its own process, in `cwd`, with exactly `env` (plus PATH). */
export async function startBuiltServer(
  env: Record<string, string>,
  cwd: string,
): Promise<BuiltServer> {
  const port = await freePort();
  const chunks: string[] = [];
  const child = spawn(process.execPath, [join(REPO_DIR, 'dist', 'src', 'main.js')], {
    cwd,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  await Promise.race([
    waitForPort(port, 60_000),
    exited.then((code) => {
      throw new Error(`server exited with ${code}: ${chunks.join('')}`);
    }),
  ]);
  return { child, url: `http://127.0.0.1:${port}`, output: () => chunks.join(''), exited };
}

/** The process's output as JSON lines; a line that is not JSON fails the caller. */
export function jsonLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
