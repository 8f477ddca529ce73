import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { Principal } from '../principal/principal.js';

/** What an idempotency key keeps of an answer too large to copy: what the request made. */
export interface IdempotencyReference {
  /** Names the Replayer that rebuilds the answer (`cart_line`). */
  readonly kind: string;
  readonly [member: string]: unknown;
}

/**
 * A handler's answer with the reference its idempotency key stores instead of the answer
 * (a cart line's answer is megabytes; its row is a few ids). Without a key the answer is
 * sent as it is.
 */
export class Referenced<T = unknown> {
  constructor(
    readonly answer: T,
    readonly reference: IdempotencyReference,
  ) {}
}

/**
 * Rebuilds the answer of a stored reference for a retry, passing the same access checks
 * as a fresh request of `principal` would (a member since removed is refused).
 */
export type Replayer = (
  principal: Principal,
  reference: IdempotencyReference,
  request: Request,
) => Promise<unknown>;

/** The Replayer of each reference kind; the feature that makes the references registers it. */
@Injectable()
export class Replays {
  private readonly replayers = new Map<string, Replayer>();

  register(kind: string, replayer: Replayer): void {
    this.replayers.set(kind, replayer);
  }

  of(kind: string): Replayer {
    const replayer = this.replayers.get(kind);
    if (replayer === undefined)
      throw new Error(`No replayer for idempotency references of ${kind}`);
    return replayer;
  }
}
