import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import type { CommitStep } from '../database/transaction-runner.js';
import { IdempotencyRepository, type KeyUse } from './idempotency.repository.js';
import type { IdempotencyReference } from './replays.js';

/** The key of the request being served, and whether its work recorded it. */
export interface PendingKey {
  readonly use: KeyUse;
  recorded: boolean;
}

/** Per request (the interceptor runs the handler inside it): no state shared between requests. */
const pendingKeys = new AsyncLocalStorage<PendingKey>();

/** Runs `handle` (a route handler) with `pending` as its request's key. */
export function withPendingKey<T>(pending: PendingKey, handle: () => T): T {
  return pendingKeys.run(pending, handle);
}

/**
 * What a key keeps of the work it answers: the reference its Replayer rebuilds the answer
 * from (after the route's access checks), and the answer's headers (ETag).
 */
export interface KeyOutcome {
  reference: IdempotencyReference;
  headers?: Record<string, string>;
}

/**
 * The write that stores the request's Idempotency-Key with its outcome, for the
 * transaction that does the request's work (docs/adr/0155): the work and the key's
 * answer commit together, so a process killed (or a connection lost) after the commit
 * leaves a key that replays, and one killed before leaves nothing at all.
 */
@Injectable()
export class IdempotentWork {
  constructor(private readonly keys: IdempotencyRepository) {}

  /** The step for `work`'s transaction; undefined when the request has no key. */
  step<R>(outcomeOf: (made: R) => KeyOutcome): CommitStep<R> | undefined {
    const pending = pendingKeys.getStore();
    if (pending === undefined) return undefined;
    return async (manager, made) => {
      const { reference, headers = {} } = outcomeOf(made);
      await this.keys.recordIn(manager, pending.use, JSON.stringify({ reference, headers }));
      pending.recorded = true;
    };
  }
}
