import { describe, expect, it } from 'vitest';
import { clientKey } from '../../src/rate-limit/client-key.js';

describe('clientKey: the key of a client for rate limits', () => {
  it('keys IPv6 clients by their /64', () => {
    expect(clientKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
  });

  it('keys IPv4 clients by their address, also written IPv4-mapped', () => {
    expect(clientKey('192.0.2.7')).toBe('192.0.2.7');
    expect(clientKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientKey('192.0.2.8')).not.toBe(clientKey('192.0.2.7'));
  });

  it('keeps anything unparsable as it is', () => {
    expect(clientKey('unknown')).toBe('unknown');
    expect(clientKey('')).toBe('');
  });
});
