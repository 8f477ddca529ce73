import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { isAdmin, type Principal } from '../auth/principal.js';
import { ModelDto } from './dto/model.dto.js';
import { ModelAccessService } from './model-access.service.js';
import { activeLockHolder, lockedError, lockFreeFor } from './model-lock.js';
import { ModelEntity } from './model.entity.js';

/**
 * The edit lock of a model (`locked_by_id`): a supplier member takes it so that nobody
 * else uploads a version meanwhile. It lapses after LOCK_TTL_MS unless taken again.
 */
@Injectable()
export class ModelLockService {
  constructor(
    @InjectRepository(ModelEntity) private readonly models: Repository<ModelEntity>,
    private readonly modelAccess: ModelAccessService,
  ) {}

  /** Takes (or renews) the lock; 423 while someone else holds it. */
  async lock(principal: Principal, modelId: number): Promise<ModelDto> {
    await this.modelAccess.requireWritable(principal, modelId);
    const now = new Date();
    // One conditional UPDATE: of two callers racing for a free lock, only one matches.
    const result = await this.models
      .createQueryBuilder()
      .update(ModelEntity)
      .set({ lockedById: principal.userId, lockedAt: now })
      .where('id = :id', { id: modelId })
      .andWhere(lockFreeFor(principal.userId, now))
      .execute();
    const model = await this.models.findOneByOrFail({ id: modelId });
    if (!result.affected) {
      throw lockedError(activeLockHolder(model, now));
    }
    return ModelDto.fromRow(model);
  }

  /**
   * Releases the lock: its holder or an admin may; a lock held by someone else is a
   * 423 for anyone else. Releasing a free (or lapsed) lock changes nothing.
   */
  async unlock(principal: Principal, modelId: number): Promise<ModelDto> {
    const model = await this.modelAccess.requireWritable(principal, modelId);
    const holder = activeLockHolder(model);
    if (holder !== null && holder !== principal.userId && !isAdmin(principal)) {
      throw lockedError(holder);
    }
    if (model.lockedById !== null) {
      await this.models.update(
        { id: modelId, lockedById: model.lockedById },
        { lockedById: null, lockedAt: null },
      );
    }
    return ModelDto.fromRow(await this.models.findOneByOrFail({ id: modelId }));
  }
}
