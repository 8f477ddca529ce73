/**
 * Waiting tasks per tenant, served round-robin: each `shift` takes the oldest task of the
 * next tenant that has one, so a tenant with a thousand tasks waiting delays another by
 * one task at most. Each tenant may have at most `perTenant` tasks waiting (`push`
 * answers false past it: the caller answers 503), so one tenant cannot fill the memory
 * of the process either.
 */
export class FairQueue<T> {
  private readonly byTenant = new Map<string, T[]>();
  /** Tenants with waiting tasks, in the order they are served next. */
  private readonly turns: string[] = [];
  private count = 0;

  constructor(private readonly perTenant: number) {}

  get size(): number {
    return this.count;
  }

  /** Queues a task of `tenant`; false when that tenant already has `perTenant` waiting. */
  push(tenant: string, task: T): boolean {
    let tasks = this.byTenant.get(tenant);
    if ((tasks?.length ?? 0) >= this.perTenant) return false;
    if (tasks === undefined) {
      tasks = [];
      this.byTenant.set(tenant, tasks);
      this.turns.push(tenant);
    }
    tasks.push(task);
    this.count++;
    return true;
  }

  /** The next task, the next tenant's turn; undefined when none waits. */
  shift(): T | undefined {
    const tenant = this.turns.shift();
    if (tenant === undefined) return undefined;
    const tasks = this.byTenant.get(tenant) as T[];
    const task = tasks.shift() as T;
    this.count--;
    if (tasks.length > 0) this.turns.push(tenant);
    else this.byTenant.delete(tenant);
    return task;
  }

  /** Every waiting task, removed (the pool is closing). */
  drain(): T[] {
    const all = [...this.byTenant.values()].flat();
    this.byTenant.clear();
    this.turns.length = 0;
    this.count = 0;
    return all;
  }
}
