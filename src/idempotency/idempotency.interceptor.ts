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
import { catchError, finalize, from, map, mergeMap, throwError, type Observable } from 'rxjs';
import type { Principal } from '../principal/principal.js';
import { Reply } from '../common/envelope/envelope.js';
import { ApiError } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import { canonicalJson } from './canonical-json.js';
import {
  IdempotencyRepository,
  KeyTakenError,
  type KeyLookup,
  type KeyUse,
} from './idempotency.repository.js';
import { withPendingKey, type PendingKey } from './idempotent-work.js';
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

const inFlight = () =>
  new ApiError(
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

/** The answer of a handler result (a Referenced one's own). */
const answerOf = (result: unknown): unknown =>
  result instanceof Referenced ? result.answer : result;

/**
 * Runs inside the envelope interceptor, after the guard: the caller is known, and the
 * handler's result is stored as it is, so a replay goes through the same envelope.
 * Only successful answers are kept, written by the work's own transaction (IdempotentWork,
 * docs/adr/0155): nothing is reserved in the database while a request runs, so a failed
 * request (a lost connection included) leaves its key free at once. A duplicate while
 * the first runs is 409: on this instance from the keys it is running; on another, its
 * transaction waits on the key's unique index for the first one's outcome.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  /** `caller\nkey` of the keyed requests this instance is running. */
  private readonly running = new Set<string>();

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
    const use: KeyUse = {
      caller: `user:${request.user.userId}`,
      key,
      fingerprint: await this.fingerprint(request, options),
      status: this.successStatus(context, request),
    };
    const earlier = await this.keys.find(use.caller, use.key, use.fingerprint);
    if (earlier.kind !== 'free') return from(this.answerEarlier(earlier, context));
    const slot = `${use.caller}\n${use.key}`;
    if (this.running.has(slot)) throw inFlight();
    this.running.add(slot);
    const pending: PendingKey = { use, recorded: false };
    const response = context.switchToHttp().getResponse<Response>();
    return withPendingKey(pending, () => next.handle()).pipe(
      mergeMap(async (result: unknown) => {
        // A route whose work went through no recorded transaction: recorded after it.
        if (!pending.recorded)
          await this.keys.record(use, JSON.stringify(toStored(result, response)));
        return answerOf(result);
      }),
      catchError((error: unknown) => {
        if (!(error instanceof KeyTakenError)) return throwError(() => error);
        // Another instance recorded the key first; this request's work was rolled back.
        return from(this.keys.find(use.caller, use.key, use.fingerprint)).pipe(
          mergeMap((now) =>
            this.answerEarlier(now.kind === 'free' ? { kind: 'in_flight' } : now, context),
          ),
        );
      }),
      finalize(() => this.running.delete(slot)),
    );
  }

  /** The answer to a key used before: its replay (after the route's access checks), 409 or 422. */
  private async answerEarlier(
    earlier: Exclude<KeyLookup, { kind: 'free' }>,
    context: ExecutionContext,
  ): Promise<Reply<unknown>> {
    if (earlier.kind === 'mismatch') {
      throw new ApiError(HttpStatus.UNPROCESSABLE_ENTITY, 'Idempotency-Key reused', [
        {
          code: 'idempotency_key_reused',
          message: 'This Idempotency-Key was used with another request',
          path: 'Idempotency-Key',
        },
      ]);
    }
    if (earlier.kind === 'in_flight') throw inFlight();
    const request = context.switchToHttp().getRequest<Request & { user: Principal }>();
    const response = context.switchToHttp().getResponse<Response>();
    const stored = JSON.parse(earlier.body) as StoredAnswer;
    const data = stored.reference
      ? await this.replays.of(stored.reference.kind)(request.user, stored.reference, request)
      : stored.data;
    for (const [name, value] of Object.entries(stored.headers ?? {}))
      response.setHeader(name, value);
    response.setHeader('Idempotent-Replayed', 'true');
    return new Reply(answerOf(data), stored.message);
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
