import { Injectable, type OnModuleInit } from '@nestjs/common';
import { IdempotentWork } from '../idempotency/idempotent-work.js';
import { Replays, type IdempotencyReference } from '../idempotency/replays.js';
import type { ModelEntity } from './model.entity.js';
import { AccessService } from '../access/access.service.js';
import { Page } from '../common/envelope/envelope.js';
import { ApiError } from '../common/errors/api-error.js';
import type { PageQueryDto } from '../common/pagination/page-query.dto.js';
import type { Principal } from '../principal/principal.js';
import { JsonText } from '../common/http/json-text.js';
import { CompiledModels } from '../engine-runtime/compiled-models.service.js';
import { inflateDefinition } from '../engine-runtime/definition-bytes.js';
import { ModelAnalysisDto } from './dto/model-analysis.dto.js';
import { ModelDetailDto, ModelDto } from './dto/model.dto.js';
import { ModelUploadDto } from './dto/model-upload.dto.js';
import { ModelBuilderService, type BuiltModel } from './model-builder.service.js';
import {
  activeLockHolder,
  assertNotLockedByOther,
  ifMatchAccepts,
  lockedError,
} from './model-lock.js';
import { modelIdentity, storingVersion, versionConflict } from './model-version-rules.js';
import { ModelRepository } from './model.repository.js';
import type { NewVersion } from './version-writes.repository.js';
import type { ModelUpload } from './upload/read-model-upload.js';

/** Reads the upload body; called only once the caller may upload at all. */
export type UploadReader = () => Promise<ModelUpload>;

/** The version row (and files) an upload stores. */
const versionOf = (built: BuiltModel, principal: Principal, now: Date): NewVersion => ({
  definition: built.definition,
  sourceFormat: built.format,
  consistency: built.consistency,
  assets: built.assets,
  createdById: principal.userId,
  createdAt: now,
});

/** What an Idempotency-Key of an upload keeps: the model (checked again), and the answer. */
const UPLOAD_REFERENCE = 'model_upload';
const VERSION_REFERENCE = 'model_version';
interface UploadReference extends IdempotencyReference {
  supplier_id: number;
  model_id: number;
  answer: ModelUploadDto;
}

const uploadAnswer = (model: ModelEntity, built: BuiltModel, now?: Date) =>
  ModelUploadDto.withWarnings(ModelDto.from(model, built.general, now), built.deadOptions);

@Injectable()
export class ModelsService implements OnModuleInit {
  constructor(
    private readonly models: ModelRepository,
    private readonly builder: ModelBuilderService,
    private readonly access: AccessService,
    private readonly compiledModels: CompiledModels,
    private readonly work: IdempotentWork,
    private readonly replays: Replays,
  ) {}

  /** Replays pass the checks of a fresh upload: a caller who may no longer upload is refused. */
  onModuleInit(): void {
    this.replays.register(UPLOAD_REFERENCE, async (principal, reference) => {
      const { supplier_id, answer } = reference as UploadReference;
      await this.access.requireSupplierMember(principal, supplier_id);
      return answer;
    });
    this.replays.register(VERSION_REFERENCE, async (principal, reference) => {
      const { model_id, answer } = reference as UploadReference;
      await this.access.requireWritableModel(principal, await this.models.findById(model_id));
      return answer;
    });
  }

  /** Version 1 of a new model (the supplier's members and admins). */
  async create(
    principal: Principal,
    supplierId: number,
    readUpload: UploadReader,
  ): Promise<ModelUploadDto> {
    await this.access.requireSupplierMember(principal, supplierId);
    const built = await this.builder.build(await readUpload(), supplierId);
    const identity = modelIdentity(built);
    const now = new Date();
    const keyStep = this.work.step((model: ModelEntity) => ({
      reference: {
        kind: UPLOAD_REFERENCE,
        supplier_id: supplierId,
        model_id: model.id,
        answer: uploadAnswer(model, built, now),
      },
    }));
    const model = await storingVersion(identity.code, () =>
      this.models.createWithVersion(
        supplierId,
        identity,
        versionOf(built, principal, now),
        keyStep,
      ),
    );
    // Answered once the version is ready in its evaluation worker (docs/adr/0197).
    await this.compiledModels.remember(model.id, 1, built);
    return uploadAnswer(model, built, now);
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
    const model = await this.access.requireWritableModel(
      principal,
      await this.models.findById(modelId),
    );
    assertNotLockedByOther(model, principal);
    if (!ifMatchAccepts(ifMatch, model.versionNumber)) throw versionConflict(model.versionNumber);

    const built = await this.builder.build(await readUpload(), model.supplierId);
    const identity = modelIdentity(built);
    const now = new Date();
    const next = model.versionNumber + 1;
    const keyStep = this.work.step((updated: ModelEntity) => ({
      reference: {
        kind: VERSION_REFERENCE,
        supplier_id: updated.supplierId,
        model_id: updated.id,
        answer: uploadAnswer(updated, built),
      },
      headers: { etag: `"${updated.versionNumber}"` },
    }));
    const stored = await storingVersion(identity.code, () =>
      this.models.storeNextVersion(model, identity, versionOf(built, principal, now), keyStep),
    );
    if (!stored) throw await this.updateRefusal(model.id, principal);
    await this.compiledModels.remember(model.id, next, built);
    const updated = await this.models.findById(model.id);
    if (!updated) throw ApiError.notFound('No model found');
    return uploadAnswer(updated, built);
  }

  async listForSupplier(
    principal: Principal,
    supplierId: number,
    query: PageQueryDto,
  ): Promise<Page<ModelDto>> {
    await this.access.requireReadableSupplier(principal, supplierId);
    const [rows, total] = await this.models.pageForSupplier(
      supplierId,
      query.offset,
      query.per_page,
    );
    const now = new Date();
    const items = rows.map((row) => ModelDto.fromRow(row, now));
    return new Page(items, query.page, query.per_page, total);
  }

  /** The model with the full definition of its current version. */
  async get(principal: Principal, modelId: number): Promise<ModelDetailDto> {
    const model = await this.access.requireReadableModel(
      principal,
      await this.models.findById(modelId),
    );
    const definition = await this.models.findDefinition(modelId, model.versionNumber);
    if (!definition) throw ApiError.notFound('No model found');
    // A miss compiles the definition just read rather than reading it again.
    const version = { modelId, versionNumber: model.versionNumber, definition };
    const analysis = ModelAnalysisDto.from(
      await this.compiledModels.analysis(version, `user:${principal.userId}`),
    );
    // Sent as the stored JSON text: never parsed (nor re-serialized) on the event loop.
    const json = new JsonText(await inflateDefinition(definition));
    return ModelDetailDto.withDefinition(model, json, analysis);
  }

  /** Why the conditional version update matched no row: a lock taken meanwhile, or a newer version. */
  private async updateRefusal(modelId: number, principal: Principal): Promise<ApiError> {
    const current = await this.models.findById(modelId);
    if (!current) return ApiError.notFound('No model found');
    const holder = activeLockHolder(current);
    if (holder !== null && holder !== principal.userId) return lockedError(holder);
    return versionConflict(current.versionNumber);
  }
}
