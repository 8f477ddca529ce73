import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Gauge, Histogram } from 'prom-client';
import { AppConfig } from '../config/app-config.js';
import { DatabasePool } from '../database/database-pool.js';
import { MetricsService } from './metrics.service.js';

/** Seconds a caller waits for a database connection: nothing when the pool has one idle. */
const ACQUIRE_BUCKETS = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5];

/**
 * The database pool as metrics (in use, idle, waiting, acquire time; on SQLite only
 * waiting and its wait, DatabasePool). Gauges are read at scrape time, so nothing runs on
 * the request path but the acquire timing. Redis's gauge is registered by the rate
 * limiter, which owns the connection (MetricsService.trackRedisUp).
 */
@Injectable()
export class DependencyMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsService,
    private readonly config: AppConfig,
    private readonly pool: DatabasePool,
  ) {}

  onModuleInit(): void {
    if (!this.config.metricsEnabled) return;
    const registers = [this.metrics.registry];
    const pool = this.pool;
    // SQLite has one connection and no pool: no connections to count.
    if (this.config.database.type === 'postgres') this.connectionGauges();
    new Gauge({
      name: 'configurator_db_pool_waiting',
      help: 'Callers waiting for a database connection (SQLite: transactions queued for the one connection)',
      registers,
      collect() {
        this.set(pool.stats()?.waiting ?? 0);
      },
    });
    const acquire = new Histogram({
      name: 'configurator_db_pool_acquire_seconds',
      help: 'Time a caller waited for a database connection, by outcome: ok, or failed (the database refused or did not answer in time; SQLite: a transaction waiting for the connection, always ok)',
      labelNames: ['outcome'] as const,
      buckets: ACQUIRE_BUCKETS,
      registers,
    });
    // Both series from the start: a first failure is then a rise, not a new series.
    acquire.zero({ outcome: 'ok' });
    acquire.zero({ outcome: 'failed' });
    pool.onAcquire((ms, ok) => acquire.observe({ outcome: ok ? 'ok' : 'failed' }, ms / 1000));
  }

  private connectionGauges(): void {
    const registers = [this.metrics.registry];
    const pool = this.pool;
    new Gauge({
      name: 'configurator_db_pool_connections_in_use',
      help: 'PostgreSQL connections checked out of the pool now, or being opened',
      registers,
      collect() {
        this.set(pool.stats()?.inUse ?? 0);
      },
    });
    new Gauge({
      name: 'configurator_db_pool_connections_idle',
      help: 'PostgreSQL connections open and idle in the pool',
      registers,
      collect() {
        this.set(pool.stats()?.idle ?? 0);
      },
    });
  }
}
