import { InitialSchema1763800000000 } from './1763800000000-initial-schema.js';
import { UniqueModelCode1763900000000 } from './1763900000000-unique-model-code.js';
import { ModelGeneral1764000000000 } from './1764000000000-model-general.js';
import { ModelConsistency1764100000000 } from './1764100000000-model-consistency.js';
import { IdempotencyKeys1764200000000 } from './1764200000000-idempotency-keys.js';
import { PlatformHardening1764300000000 } from './1764300000000-platform-hardening.js';
import { CartLineChecksIndex1764501000000 } from './1764501000000-cart-line-checks-index.js';
import { DeflatedDefinitions1764600000000 } from './1764600000000-deflated-definitions.js';
import { DeviceTokens1764700000000 } from './1764700000000-device-tokens.js';
import { ModelRetired1764705000000 } from './1764705000000-model-retired.js';
import { CartLineLifecycle1764710000000 } from './1764710000000-cart-line-lifecycle.js';
import { CartLineSnapshots1764720000000 } from './1764720000000-cart-line-snapshots.js';
import { IntentCarts1764765000000 } from './1764765000000-intent-carts.js';
import { AssetChunks1764916000000 } from './1764916000000-asset-chunks.js';

/** Every migration, oldest first. Add new ones at the end. */
export const MIGRATIONS = [
  InitialSchema1763800000000,
  UniqueModelCode1763900000000,
  ModelGeneral1764000000000,
  ModelConsistency1764100000000,
  IdempotencyKeys1764200000000,
  PlatformHardening1764300000000,
  CartLineChecksIndex1764501000000,
  DeflatedDefinitions1764600000000,
  DeviceTokens1764700000000,
  ModelRetired1764705000000,
  CartLineLifecycle1764710000000,
  CartLineSnapshots1764720000000,
  IntentCarts1764765000000,
  AssetChunks1764916000000,
];
