import { describe, expect, it } from 'vitest';
import { listenAddress } from '../../src/logging/listen-address.js';

describe('listenAddress: where the server listens, as the start-up line says it', () => {
  it('names every interface as * (listen(port) binds :: or 0.0.0.0)', () => {
    expect(listenAddress({ address: '::', family: 'IPv6', port: 3000 }, 3000)).toBe(
      'http://*:3000',
    );
    expect(listenAddress({ address: '0.0.0.0', family: 'IPv4', port: 3000 }, 3000)).toBe(
      'http://*:3000',
    );
  });

  it('names a bound address as it is, IPv6 in brackets', () => {
    expect(listenAddress({ address: '127.0.0.1', family: 'IPv4', port: 8080 }, 3000)).toBe(
      'http://127.0.0.1:8080',
    );
    expect(listenAddress({ address: '::1', family: 'IPv6', port: 8080 }, 3000)).toBe(
      'http://[::1]:8080',
    );
  });

  it('names a socket path as it is, and the configured port when the server has no address', () => {
    expect(listenAddress('/tmp/app.sock', 3000)).toBe('/tmp/app.sock');
    expect(listenAddress(null, 3000)).toBe('http://*:3000');
  });
});
