import { Global, Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { HttpMetricsMiddleware } from './http-metrics.middleware.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsServer } from './metrics-server.js';
import { MetricsService } from './metrics.service.js';

/**
 * GET /metrics and the HTTP request metrics. Global so that feature modules can inject
 * MetricsService (observeEvaluation) without importing this module.
 */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [MetricsService, MetricsServer],
  exports: [MetricsService],
})
export class MetricsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(HttpMetricsMiddleware).forRoutes('{*path}');
  }
}
