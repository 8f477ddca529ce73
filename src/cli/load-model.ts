import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { readFile } from 'node:fs/promises';
import { AppModule } from '../app.module.js';
import { systemPrincipal } from '../principal/principal.js';
import { ApiError } from '../common/errors/api-error.js';
import type { AppConfig } from '../config/app-config.js';
import type { ModelSourceFormat } from '../engine/index.js';
import { ModelsService } from '../models/models.service.js';
import { SupplierRepository } from '../suppliers/supplier.repository.js';
import type { UserEntity } from '../users/user.entity.js';
import { UserRepository } from '../users/user.repository.js';
import { CliError, usageError } from './cli-error.js';
import type { CliIo } from './io.js';
import { findUser } from './user-commands.js';
import { formatOfFileName } from '../models/upload/read-model-upload.js';

/** The upload format a file name implies. */
export function formatOfFile(path: string): ModelSourceFormat {
  const format = formatOfFileName(path);
  if (!format) throw usageError(`--file must end in .json, .yaml, .yml or .zip (got ${path})`);
  return format;
}

/**
 * Uploads a model file as POST /v1/suppliers/{id}/models does, through the app's own
 * ModelsService (same parsing, import merging, validation, compilation and storage).
 * It boots the application context, which reads its configuration from process.env
 * like the service itself.
 */
export async function loadModel(
  config: AppConfig,
  supplierId: number,
  file: string,
  asUser: string | undefined,
  io: CliIo,
): Promise<void> {
  const format = formatOfFile(file);
  const bytes = await readFile(file).catch(() => {
    throw new CliError(`Cannot read ${file}`);
  });
  const limit = config.engineLimits.uploadBytes;
  if (bytes.length > limit) {
    throw new CliError(`${file} is ${bytes.length} bytes, over MODEL_UPLOAD_LIMIT (${limit})`);
  }

  const app = await NestFactory.createApplicationContext(AppModule, {
    logger: ['error', 'warn'],
    abortOnError: false,
  });
  try {
    const supplier = await app.get(SupplierRepository).findById(supplierId);
    if (!supplier) throw new CliError(`No supplier with id ${supplierId}`);
    const uploader = await resolveUploader(app, asUser);
    const model = await app
      .get(ModelsService)
      .create(systemPrincipal(uploader), supplierId, async () => ({ bytes, format }))
      .catch((error: unknown) => {
        throw error instanceof ApiError ? modelRefusal(error) : error;
      });
    const name = typeof model.general.name === 'string' ? ` "${model.general.name}"` : '';
    io.out(
      `Created model #${model.id}${name} version ${model.version_number} for supplier ` +
        `#${supplierId} ${supplier.name} (uploaded as #${uploader.id} ${uploader.email})`,
    );
  } finally {
    await app.close();
  }
}

/** `--as` names the uploader recorded on the version; by default the oldest admin. */
async function resolveUploader(
  app: INestApplicationContext,
  asUser: string | undefined,
): Promise<UserEntity> {
  const users = app.get(UserRepository);
  if (asUser !== undefined) return findUser(users, asUser);
  const admin = await users.firstAdmin();
  if (!admin) {
    throw new CliError('No admin exists to record as uploader: run create-admin, or pass --as');
  }
  return admin;
}

/** "The model is invalid" with one line per problem, as the API lists them in `errors`. */
function modelRefusal(error: ApiError): CliError {
  const lines = error.problems.map(
    (problem) => `  - ${problem.path ? `${problem.path}: ` : ''}${problem.message}`,
  );
  return new CliError([error.message, ...lines].join('\n'));
}
