import { Injectable } from '@nestjs/common';
import { AccessService } from '../../access/access.service.js';
import { Page } from '../../common/envelope/envelope.js';
import { ApiError } from '../../common/errors/api-error.js';
import { JsonText } from '../../common/http/json-text.js';
import type { PageQueryDto } from '../../common/pagination/page-query.dto.js';
import type { Principal } from '../../principal/principal.js';
import { inflateDefinition } from '../../engine-runtime/definition-bytes.js';
import { ModelDto } from '../dto/model.dto.js';
import {
  ModelDiffDto,
  ModelVersionDetailDto,
  ModelVersionDto,
  type ModelDiffQueryDto,
} from '../dto/model-version.dto.js';
import type { ModelEntity } from '../model.entity.js';
import { ModelRepository } from '../model.repository.js';
import { diffModels } from './model-diff.js';
import { ModelVersionRepository } from './model-version.repository.js';

/** A diff lists at most this many changes (`truncated` says when there were more). */
export const MAX_DIFF_CHANGES = 2000;

const noVersion = (path = 'version_number', versionNumber?: number) =>
  ApiError.notFound('No such model version', [
    {
      code: 'not_found',
      message:
        versionNumber === undefined
          ? 'The model has no such version'
          : `The model has no version ${versionNumber} (${path})`,
      path,
    },
  ]);

/**
 * A model's history (versions, one version's definition, what changed between two) for
 * whoever may read the model, and its retirement for the supplier's members.
 */
@Injectable()
export class ModelVersionsService {
  constructor(
    private readonly models: ModelRepository,
    private readonly versions: ModelVersionRepository,
    private readonly access: AccessService,
  ) {}

  /**
   * The current version of each model, by id: what stored lines compare theirs with
   * (`latest_version_number`). No access check: the caller holds lines of these models.
   */
  currentVersions(modelIds: number[]): Promise<Map<number, number>> {
    return this.versions.currentVersions([...new Set(modelIds)]);
  }

  /** Newest first. */
  async list(
    principal: Principal,
    modelId: number,
    query: PageQueryDto,
  ): Promise<Page<ModelVersionDto>> {
    const model = await this.readable(principal, modelId);
    const [rows, total] = await this.versions.page(modelId, query.offset, query.per_page);
    const items = rows.map((row) => ModelVersionDto.from(row, model.versionNumber));
    return new Page(items, query.page, query.per_page, total);
  }

  async get(
    principal: Principal,
    modelId: number,
    versionNumber: number,
  ): Promise<ModelVersionDetailDto> {
    const model = await this.readable(principal, modelId);
    const version = await this.versions.find(modelId, versionNumber);
    const bytes = version ? await this.versions.definition(modelId, versionNumber) : undefined;
    if (!version || !bytes) throw noVersion();
    // The stored JSON text, sent as it is (never parsed on the event loop).
    const definition = new JsonText(await inflateDefinition(bytes));
    return { ...ModelVersionDto.from(version, model.versionNumber), definition };
  }

  /** What changed from `from` (default: to − 1) to `to` (default: the current version). */
  async diff(
    principal: Principal,
    modelId: number,
    query: ModelDiffQueryDto,
  ): Promise<ModelDiffDto> {
    const model = await this.readable(principal, modelId);
    const to = query.to ?? model.versionNumber;
    const from = query.from ?? Math.max(1, to - 1);
    const [before, after] = await Promise.all([
      this.document(modelId, from, 'from'),
      this.document(modelId, to, 'to'),
    ]);
    return ModelDiffDto.of(modelId, from, to, diffModels(before, after, MAX_DIFF_CHANGES));
  }

  /** No new cart lines on the model; stored lines stay readable. Retiring twice changes nothing. */
  async retire(principal: Principal, modelId: number): Promise<ModelDto> {
    const model = await this.writable(principal, modelId);
    await this.versions.retire(model.id, new Date());
    return this.reread(model.id);
  }

  /** Undoes a retirement: new lines are accepted again. */
  async reinstate(principal: Principal, modelId: number): Promise<ModelDto> {
    const model = await this.writable(principal, modelId);
    await this.versions.reinstate(model.id);
    return this.reread(model.id);
  }

  private async readable(principal: Principal, modelId: number): Promise<ModelEntity> {
    return this.access.requireReadableModel(principal, await this.models.findById(modelId));
  }

  /** The model, for its supplier's members (403 for its readers, 404 for anyone else). */
  async writable(principal: Principal, modelId: number): Promise<ModelEntity> {
    return this.access.requireWritableModel(principal, await this.models.findById(modelId));
  }

  private async reread(modelId: number): Promise<ModelDto> {
    const model = await this.models.findById(modelId);
    if (!model) throw ApiError.notFound('No model found');
    return ModelDto.fromRow(model);
  }

  /** 404 when the model has no such version. No access check: the caller decided. */
  async requireVersion(modelId: number, versionNumber: number): Promise<void> {
    if ((await this.versions.find(modelId, versionNumber)) === null) throw noVersion();
  }

  /** A version's document, parsed (inflated off the event loop). */
  /** One version's document; 404 naming `parameter` (the query's `from` or `to`) when it is missing. */
  private async document(
    modelId: number,
    versionNumber: number,
    parameter: 'from' | 'to',
  ): Promise<Record<string, unknown>> {
    const bytes = await this.versions.definition(modelId, versionNumber);
    if (!bytes) throw noVersion(parameter, versionNumber);
    return JSON.parse((await inflateDefinition(bytes)).toString('utf8')) as Record<string, unknown>;
  }
}
