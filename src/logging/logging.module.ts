import { Global, Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { AppLogger, createAppLogger } from './app-logger.js';
import { RequestContextMiddleware } from './request-logging.js';

/** The root pino logger (AppLogger), and the request context around every route. */
@Global()
@Module({
  providers: [
    {
      provide: AppLogger,
      inject: [AppConfig],
      useFactory: (config: AppConfig): AppLogger => ({ pino: createAppLogger(config) }),
    },
  ],
  exports: [AppLogger],
})
export class LoggingModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestContextMiddleware).forRoutes('{*path}');
  }
}
