import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Principal } from './principal.js';

/** The authenticated caller, as the guard left it on the request. */
export const CurrentPrincipal = createParamDecorator(
  (_: unknown, context: ExecutionContext): Principal => {
    const request = context.switchToHttp().getRequest<Request & { user?: Principal }>();
    if (!request.user) throw new Error('CurrentPrincipal used on a route without @Auth');
    return request.user;
  },
);
