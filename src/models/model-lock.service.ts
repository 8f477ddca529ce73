import { Injectable } from '@nestjs/common';
import { AccessService } from '../access/access.service.js';
import type { Principal } from '../principal/principal.js';
import { ModelDto } from './dto/model.dto.js';
import { activeLockHolder, lockedError } from './model-lock.js';
import { ModelRepository } from './model.repository.js';
import type { ModelEntity } from './model.entity.js';

/**
 * The edit lock of a model (`locked_by_id`): a supplier member takes it so that nobody
 * else uploads a version meanwhile. It lapses after LOCK_TTL_MS unless taken again.
 */
@Injectable()
export class ModelLockService {
  constructor(
    private readonly models: ModelRepository,
    private readonly access: AccessService,
  ) {}

  /** Takes (or renews) the lock; 423 while someone else holds it. */
  async lock(principal: Principal, modelId: number): Promise<ModelDto> {
    await this.writable(principal, modelId);
    const now = new Date();
    // One conditional UPDATE: of two callers racing for a free lock, only one matches.
    const taken = await this.models.tryLock(modelId, principal.userId, now);
    const model = await this.current(modelId);
    if (!taken) throw lockedError(activeLockHolder(model, now));
    return ModelDto.fromRow(model);
  }

  /**
   * Releases the lock: its holder or an admin may; a lock held by someone else is a
   * 423 for anyone else. Releasing a free (or lapsed) lock changes nothing.
   */
  async unlock(principal: Principal, modelId: number): Promise<ModelDto> {
    const model = await this.writable(principal, modelId);
    const holder = activeLockHolder(model);
    if (!this.access.mayReleaseLock(principal, holder)) throw lockedError(holder);
    if (model.lockedById !== null) await this.models.unlock(modelId, model.lockedById);
    return ModelDto.fromRow(await this.current(modelId));
  }

  private async writable(principal: Principal, modelId: number): Promise<ModelEntity> {
    return this.access.requireWritableModel(principal, await this.models.findById(modelId));
  }

  private async current(modelId: number): Promise<ModelEntity> {
    const model = await this.models.findById(modelId);
    // Models are never deleted; a vanished row is a server error, not a 404.
    if (!model) throw new Error(`model ${modelId} vanished`);
    return model;
  }
}
