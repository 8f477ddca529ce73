import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltServer, ensureBuilt, startBuiltServer } from '../support/built-server.js';
import { REPO_DIR } from '../support/examples.js';

const run = promisify(execFile);

/** The README's curl walkthrough: the first `sh` block after its heading, as a reader pastes it. */
function walkthrough(): string {
  const readme = readFileSync(join(REPO_DIR, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## A walk through the API with curl'));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README has no curl walkthrough');
  return block[1];
}

/**
 * The README's walkthrough, pasted into bash against the built service on a new SQLite
 * database (the quick start's), its first admin from the README's own ADMIN_* values.
 * `set -e` and curl's --fail-with-body make any 4xx or 5xx fail the run.
 */
describe('the README walkthrough runs as pasted', () => {
  let server: BuiltServer;
  let dataDir: string;

  beforeAll(async () => {
    ensureBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'readme-walk-'));
    server = await startBuiltServer(
      {
        ADMIN_EMAIL: 'admin@example.com',
        ADMIN_PASSWORD: 'change-me-please',
        JWT_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
        LOG_LEVEL: 'warn',
      },
      dataDir,
    );
  }, 120_000);
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('every step answers 2xx, the line moves through its ETags and version 2 is compared', async () => {
    const script = walkthrough().replace(/^B=http:\/\/localhost:3000$/m, `B=${server.url}`);
    expect(script).toContain(`B=${server.url}`);
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: REPO_DIR,
      timeout: 60_000,
    });
    const answers = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { code: number; message: string; data: any });
    expect(answers.map((a) => a.message)).toEqual([
      'Cart found',
      'Cart line reconfigured',
      'Model version created',
      expect.any(String),
      'Model versions compared',
      'Cart line rechecked',
      'Cart line reconfigured',
      'Configuration evaluated',
    ]);
    expect(answers.every((a) => a.code >= 200 && a.code < 300)).toBe(true);
    const [cart, replaced, version2, , diff, , moved, guided] = answers;
    expect(cart.data).toMatchObject({ line_count: 1, currency: 'EUR', total: '363.60' });
    expect(replaced.data.etag).toBe('"2"');
    expect(version2.data.version_number).toBe(2);
    expect(diff.data.changes).toEqual([
      expect.objectContaining({ path: 'questions.frame.options.alu.price' }),
    ]);
    // Moved to version 2 (nothing to change: only a price moved), aluminium at its new price.
    expect(moved.data).toMatchObject({ version_number: 2, etag: '"3"' });
    // Oak needs a wood frame: the one change the resolution makes.
    expect(guided.data.valid).toBe(true);
    expect(guided.data.resolution.changes).toEqual([
      expect.objectContaining({ question: 'frame', from: ['alu'], to: ['wood'] }),
    ]);
  }, 90_000);
});
