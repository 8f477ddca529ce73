/**
 * What the HTTP benchmarks share (bench/http, bench/small-under-load, bench/event-loop):
 * child processes killed with the benchmark, the built service started on a free port,
 * requests to it, a fresh PostgreSQL database, and the tenant every benchmark needs (the
 * admin's token, a company, a supplier the admin belongs to).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/**
 * A checkout's built engine with its stages: dist/src/engine/work.js, or index.js in builds
 * from before the main-thread entry and the work entry were split (docs/adr/0200).
 */
export function engineEntry(root) {
  const work = join(root, 'dist', 'src', 'engine', 'work.js');
  return existsSync(work) ? work : join(root, 'dist', 'src', 'engine', 'index.js');
}

/** The admin the benchmarks' services are started with (ADMIN_EMAIL, ADMIN_PASSWORD). */
export const BENCH_ADMIN = { email: 'admin@bench.test', password: 'bench-admin-password' };

/** The service's environment besides its port and storage: quiet, no Swagger. */
export const BENCH_SERVICE_ENV = {
  NODE_ENV: 'production',
  JWT_SECRET: 'a-benchmark-secret-that-is-long-enough-0123456789',
  ADMIN_EMAIL: BENCH_ADMIN.email,
  ADMIN_PASSWORD: BENCH_ADMIN.password,
  LOG_LEVEL: 'warn',
  SWAGGER_ENABLED: 'false',
};

const children = new Set();
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')));

export async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  return port;
}

/**
 * A node child process in `cwd`, killed with the benchmark; resolves once
 * `ready(output)` holds (output: a function answering what it printed so far).
 * `launcher`: a command node is run under, e.g. `['taskset', '-c', '0']` (it must exec
 * node in place, so that the child's pid is node's).
 */
export async function startChild(cwd, args, env, ready, launcher = []) {
  const [command, ...launcherArgs] = [...launcher, process.execPath];
  const child = spawn(command, [...launcherArgs, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const started = Date.now();
  while (!(await ready(() => output))) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited: ${output}`);
    if (Date.now() - started > 120_000) throw new Error(`${args.join(' ')} did not start`);
    await new Promise((done) => setTimeout(done, 100));
  }
  return {
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/**
 * The checkout's built service (`root`/dist) on a free port (or `port`), once /health/live
 * answers; `launcher` as for startChild.
 */
export async function startService(root, env, nodeArgs = [], { port: given, launcher } = {}) {
  const port = given ?? (await freePort());
  const base = `http://127.0.0.1:${port}`;
  const started = await startChild(
    root,
    [...nodeArgs, join(root, 'dist', 'src', 'main.js')],
    { ...env, PORT: String(port) },
    async () => {
      try {
        return (await fetch(`${base}/health/live`)).ok;
      } catch {
        return false;
      }
    },
    launcher,
  );
  return { ...started, base };
}

/** One request; the body as text (fetch decodes gzip itself). */
export async function call(base, method, path, { token, body, headers = {} } = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    },
    body,
  });
  const text = await res.text();
  return { status: res.status, text, headers: res.headers };
}

/** The `data` of a successful answer; any other status throws. */
export async function data(base, method, path, options) {
  const res = await call(base, method, path, options);
  if (res.status >= 300)
    throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 300)}`);
  return JSON.parse(res.text).data;
}

/**
 * A fresh PostgreSQL database on the server of `adminUrl` (pg from `root`'s
 * node_modules), and how to drop it.
 */
export async function pgDatabase(root, adminUrl, prefix) {
  const { Client } = createRequire(join(root, 'package.json'))('pg');
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * The admin's token, a company and a supplier of it with the admin as a member: what a
 * preview or an upload needs.
 */
export async function benchTenant(base, admin = BENCH_ADMIN) {
  const { access_token: token } = await data(base, 'POST', '/v1/login', {
    body: JSON.stringify(admin),
  });
  const me = await data(base, 'GET', '/v1/users/me', { token });
  const company = await data(base, 'POST', '/v1/companies', {
    token,
    body: JSON.stringify({
      email: 'co@bench.test',
      name: 'Bench company',
      vat_number: 'NL-BENCH',
      coc_number: 'COC-BENCH',
    }),
  });
  const supplier = await data(base, 'POST', `/v1/suppliers/${company.id}`, {
    token,
    body: JSON.stringify({
      email: 'sup@bench.test',
      name: 'Bench supplier',
      website: 'https://bench.test',
    }),
  });
  await data(base, 'POST', `/v1/suppliers/${supplier.id}/members`, {
    token,
    body: JSON.stringify({ user_id: me.id }),
  });
  return { token, me, company, supplier };
}

/** Uploads a model document (JSON or YAML) to the supplier; its model id. */
export async function uploadModel(base, token, supplierId, model, yaml) {
  const uploaded = await fetch(`${base}/v1/suppliers/${supplierId}/models`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': yaml ? 'application/yaml' : 'application/json',
    },
    body: model,
  });
  if (uploaded.status !== 201) throw new Error(`upload: ${await uploaded.text()}`);
  return (await uploaded.json()).data.id;
}
