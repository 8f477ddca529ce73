import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { AccessModule } from './access/access.module.js';
import { AdmissionModule } from './admission/admission.module.js';
import { AuthModule } from './auth/auth.module.js';
import { CredentialsGuard } from './auth/credentials.guard.js';
import { CartsModule } from './carts/carts.module.js';
import { EnvelopeInterceptor } from './common/envelope/envelope.interceptor.js';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter.js';
import { createValidationPipe } from './common/validation/validation.pipe.js';
import { CompaniesModule } from './companies/companies.module.js';
import { ConfigModule } from './config/config.module.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { DatabaseModule } from './database/database.module.js';
import { TypeOrmPinoLogger } from './database/typeorm-pino-logger.js';
import { AppConfig } from './config/app-config.js';
import { AppLogger } from './logging/app-logger.js';
import { HealthModule } from './health/health.module.js';
import { IdempotencyModule } from './idempotency/idempotency.module.js';
import { IntentsModule } from './intents/intents.module.js';
import { ShutdownModule } from './shutdown/shutdown.module.js';
import { LoggingModule } from './logging/logging.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { ModelsModule } from './models/models.module.js';
import { RateLimitModule } from './rate-limit/rate-limit.module.js';
import { SuppliersModule } from './suppliers/suppliers.module.js';
import { TokensModule } from './tokens/tokens.module.js';
import { TracingModule } from './tracing/tracing.module.js';
import { UsersModule } from './users/users.module.js';

/**
 * The guard, pipe, interceptor and filter are APP_* providers (not main.ts globals)
 * so that every test app built from this module gets them too.
 */
@Module({
  imports: [
    ConfigModule,
    LoggingModule,
    ShutdownModule,
    DatabaseModule.forRoot(
      (config: AppConfig, logger: AppLogger) => ({
        ...buildDataSourceOptions(config.database),
        logger: new TypeOrmPinoLogger(logger.pino),
      }),
      [AppConfig, AppLogger],
    ),
    IdempotencyModule,
    AdmissionModule,
    RateLimitModule,
    AccessModule,
    AuthModule,
    UsersModule,
    TokensModule,
    IntentsModule,
    CompaniesModule,
    SuppliersModule,
    ModelsModule,
    CartsModule,
    HealthModule,
    MetricsModule,
    TracingModule,
  ],
  providers: [
    { provide: APP_GUARD, useClass: CredentialsGuard },
    {
      provide: APP_PIPE,
      // A configuration answers at most as many questions as a model may have.
      useFactory: (config: AppConfig) => createValidationPipe(config.engineLimits.questions),
      inject: [AppConfig],
    },
    { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
  ],
})
export class AppModule {}
