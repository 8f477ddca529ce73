import { HttpStatus } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { WorkerFailure } from './worker-pool.js';

/** Retry-After of a full compile queue (uploads take seconds) and of a busy evaluator. */
const COMPILE_RETRY_SECONDS = '5';
const EVALUATION_RETRY_SECONDS = '1';

/** 503: the supplier has as many compiles waiting as COMPILE_QUEUE_SIZE admits. */
export function compileBusy(): ApiError {
  return new ApiError(
    HttpStatus.SERVICE_UNAVAILABLE,
    'Service busy',
    [
      {
        code: 'compile_queue_full',
        message: 'Every model compiler is busy and the queue is full; retry shortly',
      },
    ],
    { 'Retry-After': COMPILE_RETRY_SECONDS },
  );
}

/** 503: a capacity problem of evaluations (the company's queue full, a worker lost). */
function evaluationUnavailable(code: string, message: string): ApiError {
  return new ApiError(HttpStatus.SERVICE_UNAVAILABLE, 'Service busy', [{ code, message }], {
    'Retry-After': EVALUATION_RETRY_SECONDS,
  });
}

/** 422 `evaluation_timeout`: work that cannot finish within EVALUATION_TIMEOUT_MS. */
export function evaluationTimeout(message: string): ApiError {
  return new ApiError(HttpStatus.UNPROCESSABLE_ENTITY, 'Evaluation timed out', [
    { code: 'evaluation_timeout', message },
  ]);
}

export function tooLarge(message: string): ApiError {
  return new ApiError(HttpStatus.PAYLOAD_TOO_LARGE, 'Payload too large', [
    { code: 'limit_exceeded', message },
  ]);
}

/** A compile's failure in the pool as the documented problem (else the error itself). */
export function compileProblem(error: unknown, timeoutMs: number, heapMb: number): unknown {
  if (!(error instanceof WorkerFailure)) return error;
  switch (error.reason) {
    case 'busy':
      return compileBusy();
    case 'deadline':
      return tooLarge(`The model takes longer than ${timeoutMs / 1000} s to compile`);
    case 'out_of_memory':
      return tooLarge(
        `The model needs more memory to compile than a compile worker has (${heapMb} MB)`,
      );
    default:
      return evaluationUnavailable('engine_worker_failed', 'A model compiler stopped; retry');
  }
}

/** An evaluation's failure in the pool as the documented problem (else the error itself). */
export function evaluationProblem(error: unknown, timeoutMs: number): unknown {
  if (!(error instanceof WorkerFailure)) return error;
  switch (error.reason) {
    case 'busy':
      return evaluationUnavailable(
        'evaluation_queue_full',
        'Too many evaluations of this company are waiting; retry shortly',
      );
    case 'deadline':
      return evaluationTimeout(`The evaluation did not finish within ${timeoutMs} ms`);
    default:
      return evaluationUnavailable(
        'engine_worker_failed',
        'The evaluation stopped with its worker; retry',
      );
  }
}
