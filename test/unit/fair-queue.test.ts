import { describe, expect, it } from 'vitest';
import { FairQueue } from '../../src/engine-runtime/fair-queue.js';

describe('FairQueue (per-tenant queues served round robin)', () => {
  it('serves tenants in turn, whatever one of them has waiting', () => {
    const queue = new FairQueue<string>(100);
    for (let i = 0; i < 5; i++) queue.push('attacker', `a${i}`);
    queue.push('victim', 'v0');
    expect([queue.shift(), queue.shift(), queue.shift()]).toEqual(['a0', 'v0', 'a1']);
    expect(queue.size).toBe(3);
  });

  it('refuses a tenant past its bound and nobody else', () => {
    const queue = new FairQueue<string>(2);
    expect(queue.push('a', '1')).toBe(true);
    expect(queue.push('a', '2')).toBe(true);
    expect(queue.push('a', '3')).toBe(false);
    expect(queue.push('b', '1')).toBe(true);
  });
});
