import type { AddressInfo } from 'node:net';

/**
 * Where the server really listens, as a URL: `http://*:3000` when it is bound to every
 * interface (`::` or `0.0.0.0`, what `listen(port)` does), else the bound address. Nest's
 * `getUrl()` names a loopback address (`[::1]`) in that case, which reads as "local only".
 */
export function listenAddress(address: AddressInfo | string | null, port: number): string {
  if (address === null) return `http://*:${port}`;
  if (typeof address === 'string') return address; // a pipe or a Unix socket
  const any = address.address === '::' || address.address === '0.0.0.0';
  const host = any ? '*' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
