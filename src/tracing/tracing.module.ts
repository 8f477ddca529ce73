import { Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { stopTracing } from './start-tracing.js';

/** At shutdown, after the last request: the spans still buffered are exported. */
@Injectable()
export class TracingShutdown implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await stopTracing();
  }
}

/** Tracing itself starts before the app (main.ts); the app only ends it. */
@Module({ providers: [TracingShutdown] })
export class TracingModule {}
