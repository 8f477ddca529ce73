import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, In, type DataSource, type Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { TransactionRunner, type CommitStep } from '../database/transaction-runner.js';
import { CompanySupplierEntity } from '../suppliers/company-supplier.entity.js';
import {
  loadConsistency,
  loadDefinition,
  loadDefinitions,
  storeConsistency,
} from './version-bytes.repository.js';
import {
  assertCodeFree,
  insertVersion,
  type ModelIdentity,
  type NewVersion,
} from './version-writes.repository.js';
import { loadAssetChunk, storeNewAssetBytes } from './asset-bytes.repository.js';
import { ModelAssetEntity } from './model-asset.entity.js';
import { lockCutoff } from './model-lock.js';
import { ModelVersionEntity } from './model-version.entity.js';
import { ModelEntity } from './model.entity.js';

/** A version's definition as stored (deflated). */
export interface StoredDefinition {
  modelId: number;
  versionNumber: number;
  definition: Uint8Array;
}

/**
 * models, model_versions and model_assets. Writes of a version happen in one transaction
 * with the model row; a concurrent upload that took the code surfaces as CodeTakenError
 * (checked) or a unique violation (the index `uq_models_supplier_code`).
 */
@Injectable()
export class ModelRepository {
  private readonly models: Repository<ModelEntity>;
  private readonly assets: Repository<ModelAssetEntity>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {
    this.models = dataSource.getRepository(ModelEntity);
    this.assets = dataSource.getRepository(ModelAssetEntity);
  }

  findById(id: number): Promise<ModelEntity | null> {
    return this.models.findOneBy({ id });
  }

  /** The consistency form stored with a version (undefined: none yet). */
  findConsistency(modelId: number, versionNumber: number): Promise<Uint8Array | undefined> {
    return loadConsistency(this.dataSource, modelId, versionNumber);
  }

  /** Stores a version's consistency form (rebuilt by a newer engine). */
  saveConsistency(modelId: number, versionNumber: number, form: Uint8Array): Promise<void> {
    return storeConsistency(this.dataSource, modelId, versionNumber, form);
  }

  /**
   * A version's definition as stored, deflated (undefined: no such version): the compile
   * worker inflates and parses it, so a cache miss never parses megabytes on the event loop.
   */
  findDefinition(modelId: number, versionNumber: number): Promise<Uint8Array | undefined> {
    return loadDefinition(this.dataSource, modelId, versionNumber);
  }

  /** Every stored version, model by model (the CLI's `check-models`). */
  async versionKeys(): Promise<Array<{ modelId: number; versionNumber: number }>> {
    const rows = await this.dataSource.getRepository(ModelVersionEntity).find({
      select: { modelId: true, versionNumber: true },
      order: { modelId: 'ASC', versionNumber: 'ASC' },
    });
    return rows.map(({ modelId, versionNumber }) => ({ modelId, versionNumber }));
  }

  findAsset(
    modelId: number,
    versionNumber: number,
    path: string,
  ): Promise<ModelAssetEntity | null> {
    return this.assets.findOneBy({ modelId, versionNumber, path });
  }

  /** One chunk of an image's bytes by its hash (asset-bytes.repository.ts), or null. */
  findAssetChunk(sha256: string, seq: number): Promise<Buffer | null> {
    return loadAssetChunk(this.dataSource, sha256, seq);
  }

  /**
   * Version 1 of a new model: the model, its version and its assets in one transaction,
   * with `step` (an idempotency key). The image bytes are stored first, by content hash.
   */
  async createWithVersion(
    supplierId: number,
    identity: ModelIdentity,
    version: NewVersion,
    step?: CommitStep<ModelEntity>,
  ): Promise<ModelEntity> {
    await storeNewAssetBytes(this.dataSource, version.assets.values());
    return this.transactions.runWith(async (manager) => {
      await assertCodeFree(manager, supplierId, identity.code);
      const created = manager.create(ModelEntity, {
        supplierId,
        ...identity,
        versionNumber: 1,
        lockedById: null,
        lockedAt: null,
        createdAt: version.createdAt,
        updatedAt: null,
      });
      // insert, not save: no reload of the row, and the generated id is set on `created`.
      await manager.insert(ModelEntity, created as QueryDeepPartialEntity<ModelEntity>);
      await insertVersion(manager, created.id, 1, version);
      return created;
    }, step);
  }

  /**
   * Version n+1 of `model`, only if the row is still at `model.versionNumber` and its
   * lock is free for the uploader (one conditional UPDATE: no one slips in between).
   * False when that condition failed; nothing is stored then. `step` commits with the
   * version, given the model row as the version left it (an idempotency key).
   */
  async storeNextVersion(
    model: ModelEntity,
    identity: ModelIdentity,
    version: NewVersion,
    step?: CommitStep<ModelEntity>,
  ): Promise<boolean> {
    const next = model.versionNumber + 1;
    await storeNewAssetBytes(this.dataSource, version.assets.values());
    return this.transactions.run(async (manager) => {
      await assertCodeFree(manager, model.supplierId, identity.code, model.id);
      const changes = { ...identity, versionNumber: next, updatedAt: version.createdAt };
      const result = await manager
        .createQueryBuilder()
        .update(ModelEntity)
        .set(changes as QueryDeepPartialEntity<ModelEntity>)
        .where('id = :id AND version_number = :current', {
          id: model.id,
          current: model.versionNumber,
        })
        .andWhere(lockFreeFor(version.createdById, version.createdAt))
        .execute();
      if (!result.affected) return false;
      await insertVersion(manager, model.id, next, version);
      if (step) await step(manager, await manager.findOneByOrFail(ModelEntity, { id: model.id }));
      return true;
    });
  }

  /** Takes (or renews) the edit lock if it is free, lapsed or the user's; false otherwise. */
  async tryLock(modelId: number, userId: number, now: Date): Promise<boolean> {
    const result = await this.models
      .createQueryBuilder()
      .update(ModelEntity)
      .set({ lockedById: userId, lockedAt: now })
      .where('id = :id', { id: modelId })
      .andWhere(lockFreeFor(userId, now))
      .execute();
    return Boolean(result.affected);
  }

  /** Clears the lock if `holderId` still holds it. */
  async unlock(modelId: number, holderId: number): Promise<void> {
    await this.models.update(
      { id: modelId, lockedById: holderId },
      { lockedById: null, lockedAt: null },
    );
  }

  /** One page of a supplier's models, by id, with the count. */
  pageForSupplier(
    supplierId: number,
    offset: number,
    limit: number,
  ): Promise<[ModelEntity[], number]> {
    return this.models.findAndCount({
      where: { supplierId },
      order: { id: 'ASC' },
      skip: offset,
      take: limit,
    });
  }

  /** One page of the models of the suppliers a company buys from, by id, with the count. */
  pageForCompany(
    companyId: number,
    offset: number,
    limit: number,
  ): Promise<[ModelEntity[], number]> {
    return this.models
      .createQueryBuilder('m')
      .innerJoin(
        CompanySupplierEntity,
        'link',
        'link.supplierId = m.supplierId AND link.companyId = :companyId',
        { companyId },
      )
      .orderBy('m.id', 'ASC')
      .skip(offset)
      .take(limit)
      .getManyAndCount();
  }

  /**
   * The current versions of these models of this supplier (others are left out), with
   * the files those versions ship: what an upload's `imports` merge.
   */
  async currentVersionsOf(
    ids: number[],
    supplierId: number,
  ): Promise<{ versions: StoredDefinition[]; assets: ModelAssetEntity[] }> {
    if (ids.length === 0) return { versions: [], assets: [] };
    const rows = await this.models.findBy({ id: In(ids), supplierId });
    const current = rows.map((row) => ({ modelId: row.id, versionNumber: row.versionNumber }));
    if (current.length === 0) return { versions: [], assets: [] };
    const [versions, assets] = await Promise.all([
      loadDefinitions(this.dataSource, current),
      this.assets.findBy(current),
    ]);
    return { versions, assets };
  }
}

/**
 * SQL condition for a conditional UPDATE of `models`: the lock is free, lapsed, or held
 * by `userId`. Checked in the same statement as the write.
 */
function lockFreeFor(userId: number, now: Date): Brackets {
  return new Brackets((lock) =>
    lock
      .where('locked_by_id IS NULL')
      .orWhere('locked_by_id = :me', { me: userId })
      .orWhere('locked_at < :cutoff', { cutoff: lockCutoff(now) }),
  );
}
