import type { ExecutionContext } from '@nestjs/common';

/**
 * What a guard or an interceptor reads from a route's decorators, read once per route
 * (handler and controller) and kept: the metadata is fixed once the app is built, and
 * each Reflector lookup walks reflect-metadata's maps up the prototype chain, about a
 * dozen lookups per request between the credentials guard and the envelope
 * (docs/adr/0239-preview-main-thread-cuts.md).
 */
export class PerRoute<Facts extends object> {
  private readonly byHandler = new WeakMap<object, WeakMap<object, Facts>>();

  constructor(private readonly read: (context: ExecutionContext) => Facts) {}

  of(context: ExecutionContext): Facts {
    const handler = context.getHandler();
    const controller = context.getClass();
    let byController = this.byHandler.get(handler);
    if (byController === undefined) this.byHandler.set(handler, (byController = new WeakMap()));
    let facts = byController.get(controller);
    if (facts === undefined) byController.set(controller, (facts = this.read(context)));
    return facts;
  }
}
