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
import { PerRoute } from '../common/per-route.js';
import { routeContract } from '../common/route-contract.js';
import type { SeedContract } from '../common/seed-contract.decorator.js';
import { AUTH_KEY, PUBLIC_KEY, type AuthRequirement } from '../principal/auth.decorator.js';
import type { Principal } from '../principal/principal.js';

/** What the guard reads from a route's decorators. */
interface RouteRule {
  isPublic: boolean;
  requirement: AuthRequirement | undefined;
  contract: SeedContract;
}

/**
 * The one global guard. Deny by default: a route must say `@Public()` or `@Auth(...)`.
 * It runs the Passport strategies the route accepts, then the role and membership
 * checks the route names.
 */
@Injectable()
export class CredentialsGuard implements CanActivate {
  private readonly passportGuards = new Map<string, IAuthGuard>();
  /** The route's `@Public`, `@Auth` and seed contract, read once per route. */
  private readonly routes = new PerRoute<RouteRule>((context) => {
    const targets = [context.getHandler(), context.getClass()];
    return {
      isPublic: this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets) === true,
      requirement: this.reflector.getAllAndOverride<AuthRequirement | undefined>(
        AUTH_KEY,
        targets,
      ),
      contract: routeContract(this.reflector, context),
    };
  });

  constructor(
    private readonly reflector: Reflector,
    private readonly access: AccessService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const { isPublic, requirement, contract } = this.routes.of(context);
    if (isPublic) return true;
    if (!requirement) throw ApiError.forbidden('This route declares no access rule');

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
