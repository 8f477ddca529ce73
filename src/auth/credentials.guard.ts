import {
  Injectable,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard, type IAuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { AccessService } from '../access/access.service.js';
import { ApiError, AuthenticationError } from '../common/errors/api-error.js';
import { parseId } from '../common/http/id-param.js';
import { routeContract } from '../common/route-contract.js';
import { AUTH_KEY, PUBLIC_KEY, type AuthRequirement } from '../principal/auth.decorator.js';
import type { Principal } from '../principal/principal.js';

/**
 * The one global guard. Deny by default: a route must say `@Public()` or `@Auth(...)`.
 * It runs the Passport strategies the route accepts, then the role and membership
 * checks the route names.
 */
@Injectable()
export class CredentialsGuard implements CanActivate {
  private readonly passportGuards = new Map<string, IAuthGuard>();

  constructor(
    private readonly reflector: Reflector,
    private readonly access: AccessService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    const requirement = this.reflector.getAllAndOverride<AuthRequirement | undefined>(
      AUTH_KEY,
      targets,
    );
    if (!requirement) throw ApiError.forbidden('This route declares no access rule');

    const contract = routeContract(this.reflector, context);
    await this.authenticate(context, requirement, contract.unauthenticated);
    const request = context.switchToHttp().getRequest<Request & { user: Principal }>();
    const principal = request.user;

    // The route's options are AccessService rules, checked before the body is read.
    if (requirement.role === 'admin') this.access.requireAdmin(principal);
    if (requirement.supplierMember) {
      const id = parseId(request.params[requirement.supplierMember]);
      await this.access.requireSupplierMember(principal, id, contract.notMember);
    }
    if (requirement.companyMember) {
      await this.access.requireCompany(
        principal,
        parseId(request.params[requirement.companyMember]),
      );
    }
    return true;
  }

  private async authenticate(
    context: ExecutionContext,
    requirement: AuthRequirement,
    failureStatus: number,
  ): Promise<void> {
    try {
      await this.passportGuard(requirement.kinds).canActivate(context);
    } catch (error) {
      if (error instanceof UnauthorizedException) {
        throw new AuthenticationError(
          'Missing, invalid, expired or revoked credential',
          failureStatus,
        );
      }
      throw error;
    }
  }

  private passportGuard(kinds: string[]): IAuthGuard {
    const key = kinds.join(',');
    let guard = this.passportGuards.get(key);
    if (!guard) {
      guard = new (AuthGuard(kinds))();
      this.passportGuards.set(key, guard);
    }
    return guard;
  }
}
