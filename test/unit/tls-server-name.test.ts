// The client's TLS server name (client/tls-server-name.ts): grpc-js would send an IP
// target's address as the server name (RFC 6066 forbids it; Node warns, DEP0123). For an IP
// target the client names the server SERVER_NAME and checks the certificate against the
// IP address, as grpc-js checked it; a host name target is left to grpc-js as it was.
// (End to end, sf-ctl over mTLS by IP without the warning: operator-hold-tls.test.ts.)
import type { PeerCertificate } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { SERVER_NAME, serverNaming, targetHost } from '../../client/tls-server-name.js';

/** A certificate as Node's checkServerIdentity reads it: its subject alternative names. */
const cert = (subjectaltname: string): PeerCertificate => ({ subject: { CN: 'replica' }, subjectaltname }) as unknown as PeerCertificate;

describe('the TLS server name of a client channel', () => {
  it('finds the host grpc-js names the server by: the first address of a list', () => {
    expect(targetHost('ipv4:127.0.0.1:13005')).toBe('127.0.0.1');
    expect(targetHost('ipv4:10.0.0.7:13005,10.0.0.8:13005')).toBe('10.0.0.7');
    expect(targetHost('ipv6:[::1]:13005,[::2]:13005')).toBe('::1');
    expect(targetHost('dns:///db.example:13005')).toBe('db.example');
    expect(targetHost('dns:///10.1.2.3:13005')).toBe('10.1.2.3');
    expect(targetHost('db.example:13005')).toBe('db.example');
  });

  it('for an IP target: a name that is no IP address, and the certificate checked against the IP', () => {
    const { channelOptions, verify } = serverNaming('ipv4:127.0.0.1:13005,127.0.0.1:13006');
    expect(channelOptions).toEqual({ 'grpc.ssl_target_name_override': SERVER_NAME });
    const check = verify.checkServerIdentity as NonNullable<typeof verify.checkServerIdentity>;
    // grpc-js passes the override as the name; the IP is what is checked.
    expect(check(SERVER_NAME, cert('DNS:localhost, IP Address:127.0.0.1'))).toBeUndefined();
    expect(check(SERVER_NAME, cert('DNS:sfdb-replica.invalid, IP Address:10.9.9.9'))?.message).toMatch(/IP: 127\.0\.0\.1 is not in the cert's list/);
  });

  it('for a host name target: grpc-js as it is (the name sent and checked)', () => {
    expect(serverNaming('dns:///db.example:13005')).toEqual({ channelOptions: {}, verify: {} });
  });
});
