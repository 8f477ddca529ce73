import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';

/** Express's compiled `trust proxy` (`app.get('trust proxy fn')`): is the hop'th address a proxy? */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * The key a client's rate limits count under. An IPv6 client owns at least a /64 (one
 * customer's prefix: it picks any address in it at will), so it is keyed by its /64;
 * an IPv4 address, also written IPv4-mapped (`::ffff:192.0.2.1`), is itself.
 * Anything unparsable is used as it is (it still counts, just not grouped).
 */
export function clientKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  let address = ipaddr.parse(ip);
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    if (!v6.isIPv4MappedAddress()) {
      const prefix = v6.parts.slice(0, 4).map((part) => part.toString(16));
      return `${prefix.join(':')}::/64`;
    }
    address = v6.toIPv4Address();
  }
  return address.toString();
}

/**
 * The client address as express's `req.ip` computes it (proxy-addr): the socket's address,
 * then X-Forwarded-For from the right, as long as the address so far is a trusted proxy.
 */
export function clientAddress(req: IncomingMessage, trust: TrustProxy): string {
  let address = req.socket.remoteAddress ?? '';
  const forwarded = req.headers['x-forwarded-for'];
  if (!forwarded || !trust(address, 0)) return address;
  const hops = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded).split(',');
  for (let i = hops.length - 1, hop = 1; i >= 0; i--, hop++) {
    address = hops[i].trim();
    if (i === 0 || !trust(address, hop)) return address;
  }
  return address;
}
