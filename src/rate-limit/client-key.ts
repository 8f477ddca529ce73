import ipaddr from 'ipaddr.js';

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
