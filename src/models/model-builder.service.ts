import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import {
  compileModel,
  MAX_REPORTED_PROBLEMS,
  type CompiledModel,
  type Problem,
  importedModelIds,
  mergeImports,
  readModelSource,
  type ImportedModel,
  type ModelAsset,
  type ModelSourceFormat,
  type SourceResult,
  unsafePathReason,
} from '../engine/index.js';
import { ModelRepository } from './model.repository.js';
import type { ModelUpload } from './upload/read-model-upload.js';

/** An upload turned into a stored-ready version: the merged definition, compiled. */
export interface BuiltModel {
  definition: Record<string, unknown>;
  compiled: CompiledModel;
  assets: Map<string, ModelAsset>;
  format: ModelSourceFormat;
}

/**
 * The upload pipeline: bytes → document (+ fragments, assets) → imported models of the
 * same supplier → merged definition → compiled model. Every refusal carries every
 * problem found (400) or names the limit crossed (413).
 */
@Injectable()
export class ModelBuilderService {
  constructor(
    private readonly config: AppConfig,
    private readonly models: ModelRepository,
  ) {}

  async build(upload: ModelUpload, supplierId: number): Promise<BuiltModel> {
    const limits = this.config.engineLimits;
    const source = orFail(await readModelSource(upload.bytes, upload.format, limits));
    const imported = await this.loadImports(importedModelIds(source.document), supplierId);
    const merged = orFail(mergeImports(source, imported.models));
    // Stored as JSON: compile exactly what a later load will read back.
    const definition = JSON.parse(JSON.stringify(merged)) as Record<string, unknown>;
    const assets = new Map(source.assets);
    for (const [path, asset] of imported.assets) if (!assets.has(path)) assets.set(path, asset);

    const compiled = compileModel(definition, limits);
    const problems = [
      ...(compiled.ok ? [] : compiled.problems),
      ...missingAssets(definition, assets),
    ];
    if (!compiled.ok || problems.length > 0) {
      throw ApiError.badRequest('The model is invalid', problems.slice(0, MAX_REPORTED_PROBLEMS));
    }
    return { definition, compiled: compiled.model, assets, format: upload.format };
  }

  /**
   * The current versions of the imported models, of this supplier only (others stay
   * unknown to mergeImports, which reports them), with the assets those versions ship.
   */
  private async loadImports(
    ids: number[],
    supplierId: number,
  ): Promise<{ models: Map<number, ImportedModel>; assets: Map<string, ModelAsset> }> {
    const models = new Map<number, ImportedModel>();
    const assets = new Map<string, ModelAsset>();
    const { versions, assets: files } = await this.models.currentVersionsOf(ids, supplierId);
    for (const version of versions) {
      models.set(version.modelId, {
        modelId: version.modelId,
        versionNumber: version.versionNumber,
        document: version.definition,
      });
    }
    // In import order: the first import that ships a path provides it.
    for (const id of ids) {
      for (const file of files) {
        if (file.modelId !== id || assets.has(file.path)) continue;
        const bytes = Buffer.from(file.contentBase64, 'base64');
        assets.set(file.path, { bytes, contentType: file.contentType });
      }
    }
    return { models, assets };
  }
}

function orFail<T>(result: SourceResult<T>): T {
  if (result.ok) return result.value;
  const message = result.status === 413 ? 'Payload too large' : 'The model is invalid';
  throw new ApiError(result.status, message, result.problems);
}

/** Image paths (not https URLs) that name no file of the upload or of an imported model. */
function missingAssets(definition: Record<string, unknown>, assets: Map<string, ModelAsset>) {
  const problems: Problem[] = [];
  const check = (src: unknown, path: string) => {
    if (typeof src !== 'string' || assets.has(src)) return;
    // URLs and unsafe paths are the validator's to report.
    if (/^[a-z][a-z0-9+.-]*:/i.test(src) || unsafePathReason(src) !== null) return;
    problems.push({
      code: 'unknown_asset',
      message: `"${src}" is not a file of the uploaded zip (images are zip paths or https URLs)`,
      path,
    });
  };
  recordsOf(definition.images).forEach((image, i) => check(image.src, `images[${i}].src`));
  recordsOf(definition.questions).forEach((question, q) =>
    recordsOf(question.options).forEach((option, o) =>
      check(option.image, `questions[${q}].options[${o}].image`),
    ),
  );
  return problems;
}

function recordsOf(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) return [];
  return value.map((item: unknown) =>
    typeof item === 'object' && item !== null && !Array.isArray(item)
      ? (item as Record<string, unknown>)
      : {},
  );
}
