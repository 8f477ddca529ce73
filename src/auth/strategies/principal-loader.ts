import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { UserEntity } from '../../users/user.entity.js';
import type { CredentialKind, Principal } from '../principal.js';

/** Turns a verified credential into a Principal, checking that its user still exists. */
@Injectable()
export class PrincipalLoader {
  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {}

  async load(
    userId: number,
    via: CredentialKind,
    extra: Partial<Pick<Principal, 'companyId' | 'tokenId' | 'familyId'>> = {},
  ): Promise<Principal | false> {
    if (!Number.isInteger(userId)) return false;
    const user = await this.users.findOneBy({ id: userId });
    if (!user) return false;
    return {
      userId: user.id,
      email: user.email,
      role: user.role,
      via,
      companyId: extra.companyId ?? null,
      tokenId: extra.tokenId ?? null,
      familyId: extra.familyId ?? null,
    };
  }
}
