import type { IncomingMessage } from 'node:http';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { clientAddress, clientKey, type TrustProxy } from '../../src/rate-limit/client-key.js';

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

describe("clientAddress: express's req.ip, without express", () => {
  const cases: [string, string | undefined][] = [
    ['203.0.113.1', undefined],
    ['203.0.113.1', '198.51.100.7'],
    ['127.0.0.1', '198.51.100.7'],
    ['127.0.0.1', '198.51.100.7, 10.0.0.2'],
    ['127.0.0.1', '198.51.100.7,10.0.0.2, 127.0.0.5'],
    ['127.0.0.1', '10.0.0.3, 10.0.0.2'],
    ['::ffff:127.0.0.1', ' 2001:db8::7 '],
  ];

  for (const trust of [false, 'loopback', ['loopback', '10.0.0.0/8']]) {
    it(`agrees with req.ip for trust proxy ${JSON.stringify(trust)}`, () => {
      const app = express();
      app.set('trust proxy', trust);
      const fn = app.get('trust proxy fn') as TrustProxy;
      for (const [remoteAddress, forwarded] of cases) {
        const socket = { remoteAddress };
        const headers = forwarded === undefined ? {} : { 'x-forwarded-for': forwarded };
        const req = Object.assign(Object.create(app.request), {
          app,
          socket,
          connection: socket,
          headers,
        }) as express.Request;
        const plain = { socket, headers } as unknown as IncomingMessage;
        expect(clientAddress(plain, fn), `${remoteAddress} ${forwarded}`).toBe(req.ip);
      }
    });
  }
});
