// The TLS server name (SNI) of the client's connections. grpc-js sends its target's host
// as the server name whatever it is, an IP address too (the first address of an
// `ipv4:a:p,b:p` list, for every replica of it), which RFC 6066 forbids and Node warns of
// once per process (DEP0123: sf-ctl and every daemon given ip:port targets printed it). For
// such a target the client names the server SERVER_NAME instead (grpc-js's
// `grpc.ssl_target_name_override`), and checks the replica's certificate against the IP
// address exactly as grpc-js did: the override would otherwise check it against that name.
import { isIP } from 'node:net';
import { checkServerIdentity } from 'node:tls';
import type { PeerCertificate } from 'node:tls';

/**
 * The server name sent for an IP target: a reserved name (RFC 2606 `.invalid`) that no
 * server is configured for, so a server choosing its certificate by name answers with its
 * default one, as without a name. Nothing checks the certificate against it.
 */
export const SERVER_NAME = 'sfdb-replica.invalid';

/** The host grpc-js names and checks the server by for `target` (its default authority's host). */
export function targetHost(target: string): string {
  const scheme = /^(ipv4|ipv6|dns):(?:\/\/[^/]*\/)?/.exec(target);
  const first = (scheme ? target.slice(scheme[0].length) : target).split(',')[0] ?? '';
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(first);
  if (bracketed) return bracketed[1] as string;
  // host:port, or an IPv6 address without its port (no brackets: every colon is its own).
  return isIP(first) === 6 ? first : first.replace(/:\d+$/, '');
}

export interface ServerNaming {
  /** Channel options: the server name, when the target's host is an IP address. */
  readonly channelOptions: { 'grpc.ssl_target_name_override'?: string };
  /** grpc-js's verify options: the certificate checked against the target's own host. */
  readonly verify: { checkServerIdentity?: (name: string, cert: PeerCertificate) => Error | undefined };
}

/** How a TLS channel to `target` names and checks its server: as grpc-js does, but never an IP address as the server name. */
export function serverNaming(target: string): ServerNaming {
  const host = targetHost(target);
  if (isIP(host) === 0) return { channelOptions: {}, verify: {} };
  return {
    channelOptions: { 'grpc.ssl_target_name_override': SERVER_NAME },
    // grpc-js passes the override as the name: the certificate is checked against the IP.
    verify: { checkServerIdentity: (_name, cert) => checkServerIdentity(host, cert) },
  };
}
