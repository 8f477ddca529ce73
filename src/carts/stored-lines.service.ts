import { Injectable } from '@nestjs/common';
import type { JsonText } from '../common/http/json-text.js';
import type { CartLine, LineView } from '../engine/index.js';
import { AssetUrls } from '../engine-runtime/asset-urls.js';
import { CompiledModels } from '../engine-runtime/compiled-models.service.js';
import type { CartLineEntity } from './cart-line.entity.js';
import { CartRepository } from './cart.repository.js';
import { lineInView } from './compact-line.js';
import { CartLineDto } from './dto/cart-detail.dto.js';
import { parsedLine } from './line-answer.js';
import { deflatedSnapshot, snapshotBytes, storedLine } from './stored-line.js';

/**
 * Stored lines as they are read back: their snapshots, never evaluated again
 * (docs/adr/0051-stored-line-snapshots.md), except the rows stored before snapshots.
 * No access check: the callers read rows the caller was already allowed.
 */
@Injectable()
export class StoredLines {
  constructor(
    private readonly carts: CartRepository,
    private readonly compiled: CompiledModels,
    private readonly urls: AssetUrls,
  ) {}

  /**
   * A stored row as GET /v1/carts/{id} answers it: its snapshot (storedLine), never
   * evaluated again. Rows stored before snapshots: a whole `line` is served as stored; an
   * empty one (the compact rows of the release before) is evaluated once more and its
   * snapshot kept, so that it too is evaluated no more.
   */
  async lineAnswer(
    row: CartLineEntity,
    view: LineView = 'full',
    latestVersion?: number,
  ): Promise<JsonText | CartLineDto> {
    const stored = await storedLine(row, view, this.urls, latestVersion);
    if (stored !== null) return stored;
    if (Object.keys(row.line).length > 0)
      return CartLineDto.from(
        row,
        lineInView(row.line as unknown as CartLine, view),
        view,
        latestVersion,
      );
    const evaluation = await this.compiled.evaluate(
      { modelId: row.modelId, versionNumber: row.versionNumber },
      row.companyId,
      {
        questions: row.answers,
        languageCode: row.languageCode,
        view,
        snapshot: true,
      },
    );
    const columns = await deflatedSnapshot(evaluation);
    await this.carts.saveSnapshot(row.id, columns);
    return (await storedLine(
      Object.assign(row, columns),
      view,
      this.urls,
      latestVersion,
    )) as JsonText;
  }

  /** A stored line in the full view, as the engine's line (what a recheck compares). */
  async storedCartLine(row: CartLineEntity): Promise<CartLine> {
    if (Object.keys(row.line).length > 0) return row.line as unknown as CartLine;
    const bytes = await snapshotBytes(row, 'full', this.urls);
    if (bytes !== null) return parsedLine(bytes);
    const evaluation = await this.compiled.evaluate(
      { modelId: row.modelId, versionNumber: row.versionNumber },
      row.companyId,
      {
        questions: row.answers,
        languageCode: row.languageCode,
        view: 'full',
      },
    );
    return parsedLine(evaluation.line);
  }
}
