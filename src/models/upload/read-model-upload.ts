import { HttpStatus } from '@nestjs/common';
import type { Request, Response } from 'express';
import multer from 'multer';
import { ApiError } from '../../common/errors/api-error.js';
import type { AppConfig } from '../../config/app-config.js';
import { type ModelSourceFormat, sourceFormatOf } from '../../engine/index.js';

/** The bytes of a model upload and the format its content type (or file name) names. */
export interface ModelUpload {
  bytes: Buffer;
  format: ModelSourceFormat;
}

export const UPLOAD_CONTENT_TYPES = [
  'application/json',
  'application/yaml',
  'application/x-yaml',
  'text/yaml',
  'application/zip',
] as const;

/** Room for the multipart boundaries and part headers around a file at the limit. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

const FORMAT_OF_EXTENSION: Readonly<Record<string, ModelSourceFormat>> = {
  json: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  zip: 'zip',
};

/**
 * Reads a model upload: a raw body (JSON, YAML or zip by Content-Type) or a
 * multipart/form-data body with a `file` part. Nothing over `limitBytes` is read:
 * a declared Content-Length over the limit is refused at once, and the bytes are
 * counted as they arrive, so a chunked or lying body stops at the limit too.
 */
export function readModelUpload(req: Request, limitBytes: number): Promise<ModelUpload> {
  // Read once per request: the idempotency check may read it before the handler does.
  let upload = uploads.get(req);
  if (upload === undefined) {
    upload = readOnce(req, limitBytes);
    uploads.set(req, upload);
  }
  return upload;
}

const uploads = new WeakMap<Request, Promise<ModelUpload>>();

/** What identifies an upload for `@Idempotent`: its format and bytes (not multipart framing). */
export async function modelUploadBody(req: Request, config: AppConfig): Promise<Buffer> {
  const upload = await readModelUpload(req, config.engineLimits.uploadBytes);
  return Buffer.concat([Buffer.from(`${upload.format}\n`), upload.bytes]);
}

async function readOnce(req: Request, limitBytes: number): Promise<ModelUpload> {
  if (req.is('multipart/form-data')) return readMultipart(req, limitBytes);
  const format = sourceFormatOf(req.headers['content-type']);
  if (format === null) throw unsupportedMediaType(req.headers['content-type']);
  checkDeclaredLength(req, limitBytes);
  return { bytes: await readRawBody(req, limitBytes), format };
}

function checkDeclaredLength(req: Request, allowedBytes: number): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > allowedBytes) throw tooLarge(allowedBytes);
}

async function readRawBody(req: Request, limitBytes: number): Promise<Buffer> {
  // The global JSON parser skips the upload routes; a consumed stream is a wiring mistake.
  if (req.readableEnded) throw new Error('The upload body was already consumed');
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > limitBytes) {
      // Stop reading; Node discards the rest once the 413 has been sent.
      req.pause();
      throw tooLarge(limitBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

async function readMultipart(req: Request, limitBytes: number): Promise<ModelUpload> {
  checkDeclaredLength(req, limitBytes + MULTIPART_OVERHEAD_BYTES);
  const parse = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: limitBytes, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 40 },
  }).single('file');
  await new Promise<void>((resolve, reject) => {
    parse(req, req.res as Response, (error?: unknown) =>
      error ? reject(multipartError(error, limitBytes)) : resolve(),
    );
  });
  const file = req.file;
  if (!file) {
    throw ApiError.badRequest('The model file is missing', [
      { code: 'required', message: 'Send the model in a multipart part named file', path: 'file' },
    ]);
  }
  const format = sourceFormatOf(file.mimetype) ?? formatOfFileName(file.originalname);
  if (format === null) throw unsupportedMediaType(file.mimetype, file.originalname);
  return { bytes: file.buffer, format };
}

function multipartError(error: unknown, limitBytes: number): ApiError {
  if (error instanceof multer.MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE') return tooLarge(limitBytes);
    return ApiError.badRequest('Malformed multipart body', [
      { code: 'malformed_multipart', message: error.message, path: error.field ?? 'file' },
    ]);
  }
  return ApiError.badRequest('Malformed multipart body', [
    { code: 'malformed_multipart', message: 'The multipart/form-data body could not be read' },
  ]);
}

/** The model format a file name implies (`.json`, `.yaml`/`.yml`, `.zip`), or null. */
export function formatOfFileName(fileName: string): ModelSourceFormat | null {
  const dot = fileName.lastIndexOf('.');
  const extension = dot >= 0 ? fileName.slice(dot + 1).toLowerCase() : '';
  // Own keys only: `model.constructor` must not find Object's constructor (a 500 before).
  return Object.hasOwn(FORMAT_OF_EXTENSION, extension) ? FORMAT_OF_EXTENSION[extension] : null;
}

function tooLarge(limitBytes: number): ApiError {
  return new ApiError(HttpStatus.PAYLOAD_TOO_LARGE, 'Payload too large', [
    {
      code: 'limit_exceeded',
      message: `The upload is larger than uploadBytes (${limitBytes}) bytes`,
    },
  ]);
}

function unsupportedMediaType(contentType: string | undefined, fileName?: string): ApiError {
  const sent = contentType ? `got ${contentType}` : 'got no content type';
  const named = fileName ? ` (file ${fileName})` : '';
  return new ApiError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, 'Unsupported media type', [
    {
      code: 'unsupported_media_type',
      message: `A model is ${UPLOAD_CONTENT_TYPES.join(', ')} or multipart/form-data with a file part; ${sent}${named}`,
    },
  ]);
}
