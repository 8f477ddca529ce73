import { Controller, Get, Header, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ApiError } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import { ApiErrors } from '../common/swagger/api-envelope.decorator.js';
import { Public } from '../principal/auth.decorator.js';
import { MetricsService } from './metrics.service.js';

/**
 * Prometheus scrape endpoint. Outside the envelope: Prometheus reads the text
 * exposition format, and the envelope interceptor passes a StreamableFile through.
 */
@ApiTags('ops')
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Public()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'Prometheus metrics (text exposition format, not an envelope)',
    description:
      'Process metrics; HTTP requests by method, route pattern, status and probe; admission ' +
      'refusals; the engine by lane (queue depth and wait, tasks in flight, compile time, ' +
      'refusals, workers lost, quarantines); the database pool; Redis. Listed in ' +
      'docs/OPERATIONS.md, "Metrics". With METRICS_PORT set, served on that port only.',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text exposition', schema: { type: 'string' } })
  @ApiErrors(404)
  async scrape(): Promise<StreamableFile> {
    // With METRICS_PORT the metrics live on that port only (MetricsServer); off, nowhere.
    if (this.config.metricsPort !== null || !this.config.metricsEnabled) throw ApiError.notFound();
    const text = await this.metrics.exposition();
    return new StreamableFile(Buffer.from(text, 'utf8'), { type: this.metrics.contentType });
  }
}
