import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module.js';
import { buildOpenApiDocument } from './common/swagger/openapi-document.js';
import { renderClientTypes } from './common/swagger/client-types.js';

/**
 * `npm run openapi`: writes the app's OpenAPI document to openapi.json and the client
 * types generated from it to test/client/openapi.d.ts. `--check` writes nothing and
 * fails when either committed file differs (CI). Runs the app on a throw-away SQLite
 * file: no database server, no Redis, no secrets.
 */
async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const dataDir = mkdtempSync(join(tmpdir(), 'configurator-openapi-'));
  Object.assign(process.env, { NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'error' });
  delete process.env.DATABASE_URL;
  delete process.env.REDIS_URL;
  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    bodyParser: false,
    logger: ['error'],
  });
  try {
    const document = `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`;
    const files = [
      { path: resolve('openapi.json'), text: document },
      { path: resolve('test/client/openapi.d.ts'), text: await renderClientTypes(document) },
    ];
    let drift = 0;
    for (const file of files) {
      const current = readOrEmpty(file.path);
      if (current === file.text) continue;
      if (check) {
        drift++;
        console.error(`${file.path} is out of date: run npm run openapi and commit it`);
      } else {
        writeFileSync(file.path, file.text);
        console.warn(`wrote ${file.path}`);
      }
    }
    if (drift > 0) process.exitCode = 1;
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
