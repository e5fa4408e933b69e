// Certificate identities (proto/identity.ts) and the tier's caller check (server/grpc/tls.ts).
import { describe, expect, it } from 'vitest';
import { identitiesOf, identityUri, parseIdentityUri } from '../../proto/identity.js';
import { checkCaller } from '../../server/grpc/tls.js';

const NODE = '3f0c6f8e-1111-4222-8333-944444444444';

describe('certificate identities', () => {
  it('round-trips each kind through its SAN URI', () => {
    for (const id of [{ kind: 'node', uuid: NODE }, { kind: 'replica', id: 'db-1' }, { kind: 'operator', name: 'alice' }] as const) {
      expect(parseIdentityUri(identityUri(id))).toEqual(id);
    }
  });

  it('reads them out of a subjectAltName as Node reports it, ignoring other names', () => {
    expect(identitiesOf(`DNS:localhost, URI:sfdb://replica/r1, IP Address:127.0.0.1, URI:https://example.com`)).toEqual([{ kind: 'replica', id: 'r1' }]);
    expect(identitiesOf(undefined)).toEqual([]);
    expect(identitiesOf('URI:sfdb://node/NOT-A-UUID')).toEqual([]);
    expect(identitiesOf('URI:sfdb://admin/x')).toEqual([]);
  });
});

describe('caller check', () => {
  const node = [{ kind: 'node', uuid: NODE }] as const;
  it('a node certificate may claim its own node only', () => {
    expect(checkCaller(node, { node: NODE, daemon: 'queues' }, 'GetNode')).toBeUndefined();
    expect(checkCaller(node, { node: '', daemon: 'queues' }, 'GetNode')?.reason).toBe('node_mismatch');
    expect(checkCaller(node, { node: '4f0c6f8e-1111-4222-8333-944444444444', daemon: 'queues' }, 'GetNode')?.reason).toBe('node_mismatch');
  });

  it('replica-only RPCs need a replica certificate; replicas and operators claim no node', () => {
    expect(checkCaller(node, { node: NODE, daemon: 'x' }, 'PokeChanges')?.reason).toBe('replica_only');
    expect(checkCaller([{ kind: 'replica', id: 'r' }], { node: '', daemon: 'sf-database' }, 'PokeChanges')).toBeUndefined();
    expect(checkCaller([{ kind: 'operator', name: 'o' }], { node: NODE, daemon: 'sf-ctl' }, 'GetNode')?.reason).toBe('node_mismatch');
  });

  it('a certificate with no identity, or two, is refused', () => {
    expect(checkCaller([], { node: '', daemon: '' }, 'GetNode')?.reason).toBe('no_identity');
    expect(checkCaller([...node, { kind: 'replica', id: 'r' }], { node: NODE, daemon: '' }, 'GetNode')?.reason).toBe('no_identity');
  });
});
