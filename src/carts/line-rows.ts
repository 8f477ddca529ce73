import type { JsonText } from '../common/http/json-text.js';
import type { Problem } from '../engine/index.js';
import type { EvaluatedLine } from '../engine-runtime/compiled-models.service.js';
import type { CartLineEntity } from './cart-line.entity.js';
import type { NewCartLineRow } from './cart.repository.js';
import type { LineView } from './compact-line.js';
import type { ConfigurationDto } from './dto/add-cart-line.dto.js';
import { lineWith } from './line-answer.js';
import { lineEtag } from './line-etag.js';
import type { SnapshotColumns } from './stored-line.js';

/** The legacy `line` column of a new row: the line is in its snapshot columns. */
const NO_LINE: Record<string, unknown> = {};

export interface Configured {
  modelId: number;
  versionNumber: number;
  companyId: number;
  evaluation: EvaluatedLine;
}

/** The answers of a line to evaluate: a configuration, or a stored line's new answers. */
export type LineInput = Pick<
  ConfigurationDto,
  'model_id' | 'company_id' | 'questions' | 'language_code'
>;

/**
 * The row POST /v1/carts stores for a configuration, and a replacement stores in place
 * of a line: one builder, so both store lines alike (the snapshot the worker made, its
 * price and currency). `snapshot`: the evaluation's, deflated (deflatedSnapshot).
 */
export function lineRow(
  cartId: string,
  input: LineInput,
  configured: Configured,
  snapshot: SnapshotColumns,
): NewCartLineRow {
  const { evaluation } = configured;
  return {
    cartId,
    modelId: configured.modelId,
    versionNumber: configured.versionNumber,
    companyId: input.company_id,
    languageCode: input.language_code ?? null,
    answers: input.questions,
    line: NO_LINE,
    total: evaluation.total,
    currency: evaluation.currency,
    ...snapshot,
  };
}

/**
 * The members POST /v1/carts (and a replacement, and a replay) add to the stored view's
 * bytes, which hold the line without `version_number` (a column of the row).
 */
export const addedMembers = (
  row: Pick<
    CartLineEntity,
    'id' | 'cartId' | 'modelId' | 'versionNumber' | 'companyId' | 'revision'
  >,
  warnings: Problem[],
  view: LineView,
) => ({
  version_number: row.versionNumber,
  view,
  id: row.id,
  etag: lineEtag(row.revision),
  cart_id: row.cartId,
  model_id: row.modelId,
  company_id: row.companyId,
  warnings,
});

/**
 * What POST /v1/carts (and a replacement) answer: the stored view's bytes as the worker
 * wrote them (without `version_number`, line-snapshot.ts) and where the line is stored,
 * as a replay of the same request answers it.
 */
export function storedAnswer(
  stored: { id: number; cartId: string; revision: number },
  configured: Configured,
  view: LineView,
): JsonText {
  const { evaluation } = configured;
  const { modelId, versionNumber, companyId } = configured;
  const row = { ...stored, modelId, versionNumber, companyId };
  return lineWith(evaluation.line, addedMembers(row, evaluation.warnings, view));
}
