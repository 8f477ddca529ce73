import {
  HttpStatus,
  Injectable,
  StreamableFile,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants.js';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { catchError, mergeMap, throwError, type Observable } from 'rxjs';
import { pageLinks } from '../pagination/page-links.js';
import { routeContract } from '../route-contract.js';
import { ApiError, RequestValidationError } from '../errors/api-error.js';
import { bodyParseError } from '../http/json-body.middleware.js';
import { RAW_BODY_KEY } from '../http/raw-body.decorator.js';
import { Page, PagedObject, Reply, StreamedPage, statusText, type Envelope } from './envelope.js';
import { RESPONSE_MESSAGE_KEY } from './response-message.decorator.js';
import { AppConfig } from '../../config/app-config.js';
import { JsonBytes } from '../http/json-bytes.js';
import { heldOrStreamed, jsonChunks } from './json-chunks.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Wraps every handler result in the envelope, and decides the status of invalid
 * input per route (a few seed endpoints answer 401 for a bad body). The envelope is
 * serialized here and handed to express as bytes (JsonBytes; JsonText members put in,
 * not parsed), or streamed past ANSWER_STREAM_BYTES (json-chunks.ts). Handlers return
 * finished values: nothing here runs the engine (docs/adr/0052-plain-main-thread.md).
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  private readonly streamAbove: number;

  constructor(
    private readonly reflector: Reflector,
    config: AppConfig,
  ) {
    this.streamAbove = config.answerStreamBytes;
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    const handler = context.getHandler();
    const contract = routeContract(this.reflector, context);

    const inputError = this.checkBody(request, context);
    if (inputError) return throwError(() => remap(inputError, contract.invalidBody));

    const status = this.successStatus(request, handler);
    const defaultMessage = this.reflector.get<string | undefined>(RESPONSE_MESSAGE_KEY, handler);
    // GET and HEAD answers held whole get express's weak ETag when it sends them
    // (read-etag.ts); a handler's own ETag (a model's version) stands. An answer past
    // ANSWER_STREAM_BYTES is streamed instead, without one.
    return next.handle().pipe(
      mergeMap(async (result: unknown) => {
        if (result instanceof StreamableFile || result instanceof JsonBytes) return result;
        const envelope = this.wrap(result, status, defaultMessage, request.originalUrl);
        if (result instanceof StreamedPage)
          return heldOrStreamed(streamedEnvelope(envelope, result), this.streamAbove);
        const spent: ArrayBuffer[] = [];
        return heldOrStreamed(jsonChunks(envelope, spent), this.streamAbove, spent);
      }),
      catchError((error: unknown) => throwError(() => remap(error, contract.invalidBody))),
    );
  }

  private wrap(
    result: unknown,
    status: number,
    defaultMessage: string | undefined,
    url: string,
  ): Envelope {
    if (result instanceof Page || result instanceof PagedObject) {
      return {
        code: status,
        message: defaultMessage ?? statusText(status),
        data: result instanceof Page ? result.items : result.data,
        links: pageLinks(url, result.page, result.perPage, result.lastPage),
        errors: [],
      };
    }
    const reply = result instanceof Reply ? result : new Reply(result);
    return {
      code: status,
      message: reply.message ?? defaultMessage ?? statusText(status),
      data: reply.data ?? null,
      links: {},
      errors: [],
    };
  }

  private successStatus(request: Request, handler: object): number {
    const declared = this.reflector.get<number | undefined>(HTTP_CODE_METADATA, handler as never);
    return declared ?? (request.method === 'POST' ? HttpStatus.CREATED : HttpStatus.OK);
  }

  /** A body that could not be parsed, or JSON expected but something else sent. */
  private checkBody(request: Request, context: ExecutionContext): ApiError | null {
    if (!BODY_METHODS.has(request.method)) return null;
    if (this.reflector.get<boolean>(RAW_BODY_KEY, context.getHandler())) return null;
    const parseError = bodyParseError(request);
    if (parseError) {
      return new RequestValidationError(
        [{ code: 'malformed_json', message: parseError }],
        'Malformed JSON body',
      );
    }
    const length = Number(request.headers['content-length'] ?? 0);
    const chunked = request.headers['transfer-encoding'] !== undefined;
    if ((length > 0 || chunked) && !request.is('application/json')) {
      return new ApiError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, 'Unsupported media type', [
        {
          code: 'unsupported_media_type',
          message: `Expected application/json, got ${request.headers['content-type'] ?? 'no content type'}`,
        },
      ]);
    }
    return null;
  }
}

function remap(error: unknown, invalidBodyStatus: number): unknown {
  return error instanceof RequestValidationError ? error.withStatus(invalidBodyStatus) : error;
}

/**
 * The envelope's bytes around a StreamedPage's list: `data` member by member, the list
 * from its stream (comma-separated elements), the rest as jsonChunks writes it.
 */
async function* streamedEnvelope(
  envelope: Envelope,
  page: StreamedPage<object>,
): AsyncGenerator<Buffer> {
  const { code, message, data, links, errors } = envelope;
  yield Buffer.from(`{"code":${code},"message":${JSON.stringify(message)},"data":{`);
  let first = true;
  for (const [key, member] of Object.entries(data as Record<string, unknown>)) {
    if (key !== page.listKey && member === undefined) continue;
    yield Buffer.from(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    if (key !== page.listKey) {
      yield* jsonChunks(member);
      continue;
    }
    yield Buffer.from('[');
    let element = 0;
    for await (const pieces of page.elements) {
      if (element++ > 0) yield Buffer.from(',');
      yield* pieces;
    }
    yield Buffer.from(']');
  }
  yield Buffer.from(`},"links":${JSON.stringify(links)},"errors":${JSON.stringify(errors)}}`);
}
