import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module.js';
import { configureApp } from './app.setup.js';
import { AppConfig } from './config/app-config.js';

async function bootstrap(): Promise<void> {
  // Fail fast on a bad environment, before anything connects.
  const config = new AppConfig();
  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    bodyParser: false,
    logger: levelsFrom(config.logLevel),
  });
  configureApp(app);
  await app.listen(config.port);
  Logger.log(`Listening on ${await app.getUrl()} (database: ${config.database.type})`, 'Bootstrap');
}

function levelsFrom(level: AppConfig['logLevel']): ('error' | 'warn' | 'log' | 'debug')[] {
  const all = ['error', 'warn', 'log', 'debug'] as const;
  return all.slice(0, all.indexOf(level) + 1);
}

bootstrap().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
