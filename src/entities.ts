import { DeviceTokenEntity } from './auth/device-token.entity.js';
import { RefreshFamilyEntity } from './auth/refresh-family.entity.js';
import { CartLineEntity } from './carts/cart-line.entity.js';
import { CartEntity } from './carts/cart.entity.js';
import { CompanyInvitationEntity } from './memberships/company-invitation.entity.js';
import { CompanyMemberEntity } from './memberships/company-member.entity.js';
import { CompanyEntity } from './companies/company.entity.js';
import { IdempotencyKeyEntity } from './idempotency/idempotency-key.entity.js';
import { IntentTokenEntity } from './intents/intent-token.entity.js';
import { ModelAssetEntity } from './models/model-asset.entity.js';
import { ModelVersionEntity } from './models/model-version.entity.js';
import { ModelEntity } from './models/model.entity.js';
import { CompanySupplierEntity } from './suppliers/company-supplier.entity.js';
import { SupplierMemberEntity } from './memberships/supplier-member.entity.js';
import { SupplierEntity } from './suppliers/supplier.entity.js';
import { ApiTokenEntity } from './tokens/api-token.entity.js';
import { UserEntity } from './users/user.entity.js';

/** Every entity, listed explicitly (no globs: they break under ESM and bundlers). */
export const ENTITIES = [
  UserEntity,
  RefreshFamilyEntity,
  DeviceTokenEntity,
  ApiTokenEntity,
  IntentTokenEntity,
  CompanyEntity,
  CompanyMemberEntity,
  CompanyInvitationEntity,
  SupplierEntity,
  SupplierMemberEntity,
  CompanySupplierEntity,
  ModelEntity,
  ModelVersionEntity,
  ModelAssetEntity,
  CartEntity,
  CartLineEntity,
  IdempotencyKeyEntity,
];
