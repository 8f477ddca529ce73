import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** Is the database reachable? For the readiness probe. */
@Injectable()
export class DatabaseProbe {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `SELECT 1`; rejects when the database does not answer. */
  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }

  /** `sqlite` or `postgres`, as configured. */
  get kind(): string {
    return this.dataSource.options.type;
  }
}
