import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import type { Principal } from '../auth/principal.js';
import { Page } from '../common/envelope/envelope.js';
import { ApiError } from '../common/errors/api-error.js';
import type { PageQueryDto } from '../common/pagination/page-query.dto.js';
import { AppConfig } from '../config/app-config.js';
import { CompiledModelCache, compileModel, type CompiledModel } from '../engine/index.js';
import { ModelDetailDto, ModelDto } from './dto/model.dto.js';
import { ModelAnalysisDto } from './dto/model-analysis.dto.js';
import { ModelUploadDto } from './dto/model-upload.dto.js';
import { isCurrent, loadConsistency, storeConsistency } from './consistency-store.js';
import { ModelAccessService } from './model-access.service.js';
import { ModelBuilderService, type BuiltModel } from './model-builder.service.js';
import {
  activeLockHolder,
  assertNotLockedByOther,
  ifMatchAccepts,
  lockFreeFor,
  lockedError,
} from './model-lock.js';
import {
  assertCodeFree,
  insertVersion,
  modelIdentity,
  versionConflict,
  withCodeGuard,
} from './model-store.js';
import { ModelVersionEntity } from './model-version.entity.js';
import { ModelEntity } from './model.entity.js';
import type { ModelUpload } from './upload/read-model-upload.js';
import { TransactionRunner } from '../database/transaction-runner.js';

/** A model version ready to evaluate: compiled once, then shared from the cache. */
export interface LoadedModel {
  model: ModelEntity;
  versionNumber: number;
  compiled: CompiledModel;
}

/** Reads the upload body; called only once the caller may upload at all. */
export type UploadReader = () => Promise<ModelUpload>;

const cacheKey = (modelId: number, versionNumber: number) => `${modelId}:${versionNumber}`;

/** The `general` section a version gives its model row (validated by the compile). */
const generalOf = (built: BuiltModel) => built.definition.general as Record<string, unknown>;

@Injectable()
export class ModelsService {
  constructor(
    @InjectRepository(ModelEntity) private readonly models: Repository<ModelEntity>,
    @InjectRepository(ModelVersionEntity)
    private readonly versions: Repository<ModelVersionEntity>,
    private readonly transactions: TransactionRunner,
    private readonly builder: ModelBuilderService,
    private readonly modelAccess: ModelAccessService,
    private readonly cache: CompiledModelCache,
    private readonly config: AppConfig,
  ) {}

  /** Version 1 of a new model: the model, its version and its assets in one transaction. */
  async create(
    principal: Principal,
    supplierId: number,
    readUpload: UploadReader,
  ): Promise<ModelUploadDto> {
    const built = await this.builder.build(await readUpload(), supplierId);
    const { name, code } = modelIdentity(built);
    const now = new Date();
    const model = await withCodeGuard(code, () =>
      this.transactions.run(async (manager) => {
        await assertCodeFree(manager, supplierId, code);
        const created = await manager.save(
          manager.create(ModelEntity, {
            supplierId,
            name,
            code,
            general: generalOf(built),
            versionNumber: 1,
            lockedById: null,
            lockedAt: null,
            createdAt: now,
            updatedAt: null,
          }),
        );
        await insertVersion(manager, created.id, 1, built, principal.userId, now);
        await storeConsistency(manager, created.id, 1, built.compiled);
        return created;
      }),
    );
    this.cache.getOrCompile(cacheKey(model.id, 1), () => built.compiled);
    const dto = ModelDto.from(model, built.definition.general, now);
    return ModelUploadDto.withWarnings(dto, built.compiled);
  }

  /**
   * Version n+1. Refused while someone else holds the lock (423) and when `If-Match`
   * names an older version (409); two uploads racing for the same number cannot both
   * win: the conditional update (and the unique version index) lets one through.
   */
  async update(
    principal: Principal,
    modelId: number,
    ifMatch: string | undefined,
    readUpload: UploadReader,
  ): Promise<ModelUploadDto> {
    const model = await this.modelAccess.requireWritable(principal, modelId);
    assertNotLockedByOther(model, principal);
    if (!ifMatchAccepts(ifMatch, model.versionNumber)) throw versionConflict(model.versionNumber);

    const built = await this.builder.build(await readUpload(), model.supplierId);
    const { name, code } = modelIdentity(built);
    const now = new Date();
    const next = model.versionNumber + 1;
    await withCodeGuard(code, () =>
      this.transactions.run(async (manager) => {
        await assertCodeFree(manager, model.supplierId, code, model.id);
        const result = await manager
          .createQueryBuilder()
          .update(ModelEntity)
          .set({
            versionNumber: next,
            name,
            code,
            general: generalOf(built),
            updatedAt: now,
          } as QueryDeepPartialEntity<ModelEntity>)
          .where('id = :id AND version_number = :current', {
            id: model.id,
            current: model.versionNumber,
          })
          .andWhere(lockFreeFor(principal.userId, now))
          .execute();
        if (!result.affected) throw await this.updateRefusal(manager, model.id, principal);
        await insertVersion(manager, model.id, next, built, principal.userId, now);
        await storeConsistency(manager, model.id, next, built.compiled);
      }),
    );
    this.cache.getOrCompile(cacheKey(model.id, next), () => built.compiled);
    const stored = await this.models.findOneByOrFail({ id: model.id });
    return ModelUploadDto.withWarnings(
      ModelDto.from(stored, built.definition.general),
      built.compiled,
    );
  }

  async listForSupplier(
    principal: Principal,
    supplierId: number,
    query: PageQueryDto,
  ): Promise<Page<ModelDto>> {
    await this.modelAccess.requireReadableSupplier(principal, supplierId);
    const [rows, total] = await this.models.findAndCount({
      where: { supplierId },
      order: { id: 'ASC' },
      skip: query.offset,
      take: query.per_page,
    });
    const now = new Date();
    const items = rows.map((row) => ModelDto.fromRow(row, now));
    return new Page(items, query.page, query.per_page, total);
  }

  /** The model with the full definition of its current version. */
  async get(principal: Principal, modelId: number): Promise<ModelDetailDto> {
    const model = await this.modelAccess.requireReadable(principal, modelId);
    const version = await this.versions.findOneByOrFail({
      modelId,
      versionNumber: model.versionNumber,
    });
    const { compiled } = await this.compiledFor(model);
    const analysis = ModelAnalysisDto.from(compiled.consistency.analysis);
    return ModelDetailDto.withDefinition(model, version.definition, analysis);
  }

  /**
   * A version (default: the current one) compiled, from the cache when it is there; a
   * miss loads the stored definition and compiles it once. No access check: callers
   * decide who may use the model.
   */
  async loadCompiled(modelId: number, versionNumber?: number): Promise<LoadedModel> {
    const model = await this.models.findOneBy({ id: modelId });
    if (!model) throw ApiError.notFound('No model found');
    return this.compiledFor(model, versionNumber);
  }

  /** As loadCompiled, for a model row the caller already has. */
  async compiledFor(model: ModelEntity, versionNumber = model.versionNumber): Promise<LoadedModel> {
    const key = cacheKey(model.id, versionNumber);
    const cached = this.cache.get(key);
    if (cached) return { model, versionNumber, compiled: cached };

    const version = await this.versions.findOneBy({ modelId: model.id, versionNumber });
    if (!version) throw ApiError.notFound('No such model version');
    // The consistency form stored with the version is reused; another engine version
    // (or none stored) recompiles it here, once, and stores the new one.
    const stored = await loadConsistency(this.versions.manager, model.id, versionNumber);
    const reusable = isCurrent(stored);
    const compiled = this.cache.getOrCompile(key, () => {
      const result = compileModel(version.definition, this.config.engineLimits, {
        consistency: reusable ? stored.bytes : undefined,
      });
      // Stored definitions compiled at upload; failing now means the engine changed.
      if (!result.ok) throw new Error(`Stored model ${key} no longer compiles`);
      return result.model;
    });
    if (!reusable) await storeConsistency(this.versions.manager, model.id, versionNumber, compiled);
    return { model, versionNumber, compiled };
  }

  /** Why the conditional version update matched no row: a lock taken meanwhile, or a newer version. */
  private async updateRefusal(
    manager: EntityManager,
    modelId: number,
    principal: Principal,
  ): Promise<ApiError> {
    const current = await manager.findOneByOrFail(ModelEntity, { id: modelId });
    const holder = activeLockHolder(current);
    if (holder !== null && holder !== principal.userId) return lockedError(holder);
    return versionConflict(current.versionNumber);
  }
}
