import { Injectable } from '@nestjs/common';
import type { ConfigurationFacts } from '../access/access.repository.js';
import { AccessService } from '../access/access.service.js';
import { ApiError } from '../common/errors/api-error.js';
import type { Evaluation, LineView } from '../engine/index.js';
import { MetricsService } from '../metrics/metrics.service.js';
import {
  CompiledModels,
  type EvaluatedLine,
  type Guidance,
} from '../engine-runtime/compiled-models.service.js';
import type { Principal } from '../principal/principal.js';
import { parsedLine } from './line-answer.js';
import type { Configured, LineInput } from './line-rows.js';

/** POST /v1/models/{id}/retire: no new lines (nor previews, nor reconfigured ones). */
export const modelRetired = () =>
  ApiError.conflict('The model is retired', [
    { code: 'model_retired', message: 'The supplier retired this model: it takes no new lines' },
  ]);

/** What `configure` does beyond evaluating the model's current version. */
export interface ConfigureOptions {
  /** The version to evaluate (a stored line's), not the model's current one. */
  pinned?: number;
  /** The worker also makes the line to store. */
  snapshot?: boolean;
  /** The configuration facts, already read (see CartLinesService's Replacement.facts). */
  facts?: ConfigurationFacts;
  /** A preview's `resolve` and `complete`. */
  guidance?: Guidance;
  /** Carry the answers over to the version by the nearest valid configuration. */
  move?: boolean;
}

/** A worker's evaluation with its line parsed: the engine's Evaluation in the full view. */
const parsedEvaluation = (evaluation: EvaluatedLine): Evaluation =>
  ({ ...evaluation, line: parsedLine(evaluation.line) }) as unknown as Evaluation;

/**
 * A caller's configuration evaluated, once AccessService allows it, in the worker that
 * holds the model's version compiled (CompiledModels.evaluate): what adding,
 * previewing, replacing and rechecking a line share.
 */
@Injectable()
export class LineConfigurator {
  constructor(
    private readonly compiled: CompiledModels,
    private readonly access: AccessService,
    private readonly metrics: MetricsService,
  ) {}

  /**
   * Evaluates against the model's current version (or `pinned`, a stored line's version),
   * once AccessService allows it; a retired model takes no new configuration.
   */
  async configure(
    principal: Principal,
    input: LineInput,
    view: LineView,
    { pinned, snapshot = false, facts, guidance, move }: ConfigureOptions = {},
  ): Promise<Configured> {
    // Company, model and link in one query (or read already, with the line).
    const model =
      facts === undefined
        ? await this.access.requireConfigurable(principal, input.company_id, input.model_id)
        : this.access.requireConfigurableOn(principal, input.company_id, facts);
    if (model.retired) throw modelRetired();
    const versionNumber = pinned ?? model.versionNumber;
    const started = performance.now();
    const evaluation = await this.compiled.evaluate(
      { modelId: model.id, versionNumber },
      input.company_id,
      {
        questions: input.questions,
        languageCode: input.language_code ?? null,
        view,
        snapshot,
        guidance,
        move,
      },
    );
    this.metrics.observeEvaluation(
      performance.now() - started,
      evaluation.valid ? 'valid' : 'invalid',
    );
    return { modelId: model.id, versionNumber, companyId: input.company_id, evaluation };
  }

  /** `configure` in the full view, with the line parsed (a recheck compares its members). */
  async configureParsed(
    principal: Principal,
    input: LineInput,
    pinned: number,
    { move = false }: { move?: boolean } = {},
  ): Promise<Evaluation> {
    const { evaluation } = await this.configure(principal, input, 'full', { pinned, move });
    return parsedEvaluation(evaluation);
  }
}
