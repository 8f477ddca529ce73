import type { Request } from 'express';
import type { AppConfig } from '../config/app-config.js';

/**
 * The bytes that identify a request's body, for routes that read their body
 * themselves (model uploads); other routes use their parsed JSON body.
 */
export type BodyReader = (req: Request, config: AppConfig) => Promise<Buffer | string>;

export const IDEMPOTENT_KEY = 'idempotent';

export interface IdempotentOptions {
  readBody?: BodyReader;
}
