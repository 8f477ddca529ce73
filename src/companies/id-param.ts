import { Param } from '@nestjs/common';
import { parseId } from '../auth/credentials.guard.js';

/**
 * A positive integer id from the path; anything else names nothing (404, like the
 * guard). The global pipe may already have turned the text into a number.
 */
export const IdParam = (name = 'id') =>
  Param(name, { transform: (raw: unknown) => parseId(String(raw)) });
