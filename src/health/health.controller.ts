import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  HealthCheckService,
  HealthIndicatorService,
  type HealthCheckResult,
  type HealthIndicatorFunction,
} from '@nestjs/terminus';
import { Public } from '../principal/auth.decorator.js';
import { ApiError } from '../common/errors/api-error.js';
import { DatabaseProbe } from '../database/database-probe.js';
import { ApiEnvelope, ApiErrors } from '../common/swagger/api-envelope.decorator.js';
import { AppConfig } from '../config/app-config.js';
import { ShutdownState } from '../shutdown/shutdown-state.js';
import { RateLimiterService } from '../rate-limit/rate-limiter.service.js';
import { LivenessDto, ReadinessDto } from './dto/health.dto.js';

const CHECK_TIMEOUT_MS = 2_000;

/**
 * Kubernetes probes: live = the process answers; ready = it is not shutting down and the
 * database answers. Redis is reported, never required: without it rate limits count per
 * process (docs/adr/0152-redis-outage-falls-back-to-local-limits.md), and an outage of
 * Redis taking every instance out of the Service at once would be an outage of the service.
 */
@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly database: DatabaseProbe,
    private readonly rateLimiter: RateLimiterService,
    private readonly shutdown: ShutdownState,
    private readonly config: AppConfig,
  ) {}

  @Get('live')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Liveness probe' })
  @ApiEnvelope(LivenessDto)
  live(): { status: string } {
    return { status: 'ok' };
  }

  @Get('ready')
  @Public()
  @ApiOperation({
    summary: 'Readiness probe: the database (Redis, when configured, is reported, not required)',
  })
  @ApiEnvelope(ReadinessDto)
  @ApiErrors(503)
  async ready(): Promise<{
    status: string;
    database: string;
    rate_limits: 'shared' | 'per-process';
    checks: HealthCheckResult['details'];
  }> {
    if (this.shutdown.draining) {
      throw new ApiError(503, 'Shutting down', [
        { code: 'shutting_down', message: 'The instance is shutting down' },
      ]);
    }
    const checks: HealthIndicatorFunction[] = [() => this.probe('database', this.database)];
    const redis = this.config.redisUrl ? this.probe('redis', this.rateLimiter) : null;
    let result: HealthCheckResult;
    try {
      result = await this.health.check(checks);
    } catch (error) {
      const details = (error as { response?: HealthCheckResult }).response?.details ?? {};
      const down = Object.entries(details).filter(([, check]) => check.status === 'down');
      throw new ApiError(
        503,
        'Not ready',
        down.map(([name]) => ({ code: `${name}_unavailable`, message: `${name} does not answer` })),
        { 'Retry-After': '5' },
      );
    }
    const details = { ...result.details, ...(redis ? await redis : {}) };
    return {
      status: 'ok',
      database: this.database.kind,
      rate_limits: this.rateLimiter.mode.counters,
      checks: details,
    };
  }

  /** Up when `target.ping()` answers within CHECK_TIMEOUT_MS. */
  private async probe(key: string, target: { ping(): Promise<void> }) {
    const check = this.indicators.check(key);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        target.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
        }),
      ]);
      return check.up();
    } catch (error) {
      return check.down({ message: (error as Error).message });
    } finally {
      clearTimeout(timer);
    }
  }
}
