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
import type { Request, Response } from 'express';
import { catchError, mergeMap, throwError, type Observable } from 'rxjs';
import { pageLinks } from '../pagination/page-links.js';
import { routeContract } from '../route-contract.js';
import { ApiError, RequestValidationError } from '../errors/api-error.js';
import { bodyParseError } from '../http/json-body.middleware.js';
import { RAW_BODY_KEY } from '../http/raw-body.decorator.js';
import { Page, PagedObject, Reply, statusText, type Envelope } from './envelope.js';
import { RESPONSE_MESSAGE_KEY } from './response-message.decorator.js';
import { AppConfig } from '../../config/app-config.js';
import { serializeInSlices } from '../event-loop/sliced-json.js';
import { weakEtag } from '../http/read-etag.js';
import { JsonBytes } from '../http/json-bytes.js';
import { slicingOf } from '../event-loop/slices.js';
import type { Slicing } from '../event-loop/slice-clock.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Wraps every handler result in the envelope, and decides the status of invalid
 * input per route (a few seed endpoints answer 401 for a bad body). The envelope is
 * serialized here, in slices (EVENT_LOOP_SLICE_MS), and handed to express as bytes
 * (JsonBytes): a multi-megabyte cart line does not hold the event loop while it is written.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  private readonly slicing: Slicing;
  private readonly streamAbove: number;

  constructor(
    private readonly reflector: Reflector,
    config: AppConfig,
  ) {
    this.slicing = slicingOf(config.eventLoopSliceMs);
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
    // GET and HEAD answers carry an ETag (read-etag.ts), made here from the digest taken
    // while serializing (in slices, without measurements such as a line's
    // `evaluated_in_ms`). A handler's own ETag (a model's version) stands. An answer past
    // ANSWER_STREAM_BYTES is streamed instead, without one (an idempotent route's answer
    // was stored before: the replay is serialized anew).
    const readOnly = request.method === 'GET' || request.method === 'HEAD';
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      mergeMap(async (result: unknown) => {
        if (result instanceof StreamableFile) return result;
        const envelope = this.wrap(result, status, defaultMessage, request.originalUrl);
        const answer = await serializeInSlices(envelope, this.slicing, {
          digest: readOnly && response.getHeader('ETag') === undefined,
          streamAbove: this.streamAbove,
        });
        if ('stream' in answer) return new StreamableFile(answer.stream, { type: JSON_TYPE });
        const { bytes, digest } = answer;
        if (digest !== undefined) response.setHeader('ETag', weakEtag(digest.length, digest.sha1));
        return new JsonBytes(bytes);
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
