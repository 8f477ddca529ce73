import { Global, Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { DependencyMetrics } from './dependency-metrics.js';
import { HttpMetricsMiddleware } from './http-metrics.middleware.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsServer } from './metrics-server.js';
import { MetricsService } from './metrics.service.js';

/**
 * GET /metrics and the HTTP request metrics. Global so that feature modules can inject
 * MetricsService (observeEvaluation) without importing this module. METRICS_ENABLED=false
 * leaves every request unmeasured and /metrics unserved.
 */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [MetricsService, MetricsServer, DependencyMetrics],
  exports: [MetricsService],
})
export class MetricsModule implements NestModule {
  constructor(private readonly config: AppConfig) {}

  configure(consumer: MiddlewareConsumer): void {
    if (this.config.metricsEnabled) consumer.apply(HttpMetricsMiddleware).forRoutes('{*path}');
  }
}
