import {
  HttpStatus,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants.js';
import { Reflector } from '@nestjs/core';
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { catchError, from, map, mergeMap, throwError, type Observable } from 'rxjs';
import type { Principal } from '../principal/principal.js';
import { Reply } from '../common/envelope/envelope.js';
import { ApiError } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import { canonicalJson } from './canonical-json.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IDEMPOTENT_KEY, type IdempotentOptions } from './idempotency-options.js';
import { Referenced, Replays, type IdempotencyReference } from './replays.js';

/** 1–255 printable ASCII characters (docs/api.md, "Retrying safely"). */
const VALID_KEY = /^[\x20-\x7E]{1,255}$/;

/** Headers a handler may set that belong to the answer (PUT /v1/models/{id} sets ETag). */
const REPLAYED_HEADERS = ['etag', 'location'] as const;

/**
 * What is stored of a successful answer: the handler's result, before the envelope, or
 * the reference to what it made (Referenced: rebuilt on replay, after the same access
 * checks), and the answer headers it set.
 */
interface StoredAnswer {
  data?: unknown;
  reference?: IdempotencyReference;
  message?: string;
  headers?: Record<string, string>;
}

/** The answer of a handler result (a Referenced one's own). */
const answerOf = (result: unknown): unknown =>
  result instanceof Referenced ? result.answer : result;

/**
 * Runs inside the envelope interceptor, after the guard: the caller is known, and the
 * handler's result is stored as it is, so a replay goes through the same envelope.
 * Only successful answers are kept; after a failure nothing was created, the key is
 * released and a retry runs again.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: IdempotencyRepository,
    private readonly config: AppConfig,
    private readonly replays: Replays,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<Request & { user?: Principal }>();
    const key = request.headers['idempotency-key'];
    if (key === undefined || request.user === undefined) return next.handle().pipe(map(answerOf));
    if (typeof key !== 'string' || !VALID_KEY.test(key)) {
      throw ApiError.badRequest('Invalid Idempotency-Key', [
        {
          code: 'invalid_idempotency_key',
          message: 'Idempotency-Key must be 1 to 255 printable characters',
          path: 'Idempotency-Key',
        },
      ]);
    }
    const options = this.reflector.get<IdempotentOptions>(IDEMPOTENT_KEY, context.getHandler());
    const fingerprint = await this.fingerprint(request, options);
    const claim = await this.keys.claim(`user:${request.user.userId}`, key, fingerprint);
    switch (claim.kind) {
      case 'mismatch':
        throw new ApiError(HttpStatus.UNPROCESSABLE_ENTITY, 'Idempotency-Key reused', [
          {
            code: 'idempotency_key_reused',
            message: 'This Idempotency-Key was used with another request',
            path: 'Idempotency-Key',
          },
        ]);
      case 'in_flight':
        throw new ApiError(
          HttpStatus.CONFLICT,
          'Request in progress',
          [
            {
              code: 'idempotency_key_in_flight',
              message: 'The first request with this Idempotency-Key is still running',
              path: 'Idempotency-Key',
            },
          ],
          { 'Retry-After': '1' },
        );
      case 'replay': {
        const stored = JSON.parse(claim.body) as StoredAnswer;
        const response = context.switchToHttp().getResponse<Response>();
        const principal = request.user;
        const data = stored.reference
          ? await this.replays.of(stored.reference.kind)(principal, stored.reference, request)
          : stored.data;
        for (const [name, value] of Object.entries(stored.headers ?? {}))
          response.setHeader(name, value);
        response.setHeader('Idempotent-Replayed', 'true');
        return from([new Reply(answerOf(data), stored.message)]);
      }
      case 'claimed': {
        const status = this.successStatus(context, request);
        const response = context.switchToHttp().getResponse<Response>();
        return next.handle().pipe(
          mergeMap(async (result: unknown) => {
            const stored = toStored(result, response);
            await this.keys.complete(claim.id, status, JSON.stringify(stored));
            return answerOf(result);
          }),
          catchError((error: unknown) =>
            from(this.keys.release(claim.id)).pipe(mergeMap(() => throwError(() => error))),
          ),
        );
      }
    }
  }

  /** Method, path with query, and body: the same key with another of these is 422. */
  private async fingerprint(request: Request, options: IdempotentOptions): Promise<string> {
    const hash = createHash('sha256').update(`${request.method} ${request.originalUrl}\n`);
    if (options.readBody) hash.update(await options.readBody(request, this.config));
    else hash.update(canonicalJson(request.body ?? null));
    return hash.digest('hex');
  }

  private successStatus(context: ExecutionContext, request: Request): number {
    const declared = this.reflector.get<number | undefined>(
      HTTP_CODE_METADATA,
      context.getHandler(),
    );
    return declared ?? (request.method === 'POST' ? HttpStatus.CREATED : HttpStatus.OK);
  }
}

function toStored(result: unknown, response: Response): StoredAnswer {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = response.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  if (result instanceof Referenced) return { reference: result.reference, headers };
  const answer =
    result instanceof Reply ? { data: result.data, message: result.message } : { data: result };
  return { ...answer, headers };
}
