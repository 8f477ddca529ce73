import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, IsNull, type DataSource, type Repository } from 'typeorm';
import { firstRow, fixedSql } from '../../database/fixed-sql.js';
import { loadDefinition } from '../version-bytes.repository.js';
import { ModelVersionEntity } from '../model-version.entity.js';
import { ModelEntity } from '../model.entity.js';

/** The history of a model: its immutable versions, and its retirement. */
@Injectable()
export class ModelVersionRepository {
  private readonly versions: Repository<ModelVersionEntity>;
  private readonly models: Repository<ModelEntity>;
  private readonly currentVersionSql: string;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.versions = dataSource.getRepository(ModelVersionEntity);
    this.models = dataSource.getRepository(ModelEntity);
    this.currentVersionSql = fixedSql(
      dataSource,
      'SELECT "version_number" FROM "models" WHERE "id" = $1',
    );
  }

  /** One page of a model's versions, newest first, with their count. */
  page(modelId: number, offset: number, limit: number): Promise<[ModelVersionEntity[], number]> {
    return this.versions.findAndCount({
      where: { modelId },
      order: { versionNumber: 'DESC' },
      skip: offset,
      take: limit,
    });
  }

  find(modelId: number, versionNumber: number): Promise<ModelVersionEntity | null> {
    return this.versions.findOneBy({ modelId, versionNumber });
  }

  /** The version's definition, deflated (undefined: no such version). */
  definition(modelId: number, versionNumber: number): Promise<Uint8Array | undefined> {
    return loadDefinition(this.dataSource, modelId, versionNumber);
  }

  /**
   * The current version of each of these models, by id (unknown ids are left out). One
   * id (a cart page's lines are mostly of one model) is read as fixed SQL.
   */
  async currentVersions(ids: number[]): Promise<Map<number, number>> {
    if (ids.length === 0) return new Map();
    if (ids.length === 1) {
      const row = await firstRow<{ version_number: number }>(
        this.dataSource,
        this.currentVersionSql,
        ids,
      );
      return new Map(row ? [[ids[0], Number(row.version_number)]] : []);
    }
    const rows = await this.models.find({
      select: { id: true, versionNumber: true },
      where: { id: In(ids) },
    });
    return new Map(rows.map((row) => [row.id, row.versionNumber]));
  }

  /** Sets `retiredAt` when the model is active; a retired model keeps its first date. */
  async retire(modelId: number, at: Date): Promise<void> {
    await this.models.update({ id: modelId, retiredAt: IsNull() }, { retiredAt: at });
  }

  async reinstate(modelId: number): Promise<void> {
    await this.models.update({ id: modelId }, { retiredAt: null });
  }
}
