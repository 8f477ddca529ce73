import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import {
  PLAIN_HTTP_CONTRACT,
  SEED_CONTRACT_KEY,
  type SeedContract,
} from './seed-contract.decorator.js';

/** The statuses a route answers for invalid input and failed authentication. */
export function routeContract(reflector: Reflector, context: ExecutionContext): SeedContract {
  return (
    reflector.getAllAndOverride<SeedContract | undefined>(SEED_CONTRACT_KEY, [
      context.getHandler(),
      context.getClass(),
    ]) ?? PLAIN_HTTP_CONTRACT
  );
}
