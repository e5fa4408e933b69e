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

  it('an operator hold is set or released with an operator certificate only; a node reports its own states only', () => {
    const OTHER = '4f0c6f8e-1111-4222-8333-944444444444';
    const operator = [{ kind: 'operator', name: 'o' }] as const;
    const replica = [{ kind: 'replica', id: 'r' }] as const;
    const asNode = { node: NODE, daemon: 'queues' };
    const hold = (operatorHold: unknown, nodeUuid = NODE): Record<string, unknown> => ({ nodeUuid, daemon: 'queues', state: 'STARTING', operatorHold });
    for (const change of ['OPERATOR_HOLD_SET', 'OPERATOR_HOLD_RELEASE', 7]) {
      const denial = checkCaller(node, asNode, 'SetNodeDaemonState', hold(change));
      expect(denial?.reason, String(change)).toBe('operator_only');
      expect(denial?.message).toMatch(/^operator_hold: only an operator's certificate/);
      expect(checkCaller(replica, { node: '', daemon: 'x' }, 'SetNodeDaemonState', hold(change))?.reason).toBe('operator_only');
      expect(checkCaller(operator, { node: '', daemon: 'sf-ctl' }, 'SetNodeDaemonState', hold(change, OTHER))).toBeUndefined();
    }
    // No hold change: the daemon's own report.
    for (const none of [undefined, 0, 'OPERATOR_HOLD_UNSPECIFIED']) expect(checkCaller(node, asNode, 'SetNodeDaemonState', hold(none))).toBeUndefined();
    const other = checkCaller(node, asNode, 'SetNodeDaemonState', hold(undefined, OTHER));
    expect(other?.reason).toBe('node_mismatch');
    expect(other?.message).toBe(`node_uuid: a node's certificate writes its own node's rows only: must be ${NODE} (got "${OTHER}")`);
    // Other RPCs name nodes to read them: not restricted here.
    expect(checkCaller(node, asNode, 'GetNodeDaemonState', { nodeUuid: OTHER, daemon: 'queues' })).toBeUndefined();
  });

  it('a certificate with no identity, or two, is refused', () => {
    expect(checkCaller([], { node: '', daemon: '' }, 'GetNode')?.reason).toBe('no_identity');
    expect(checkCaller([...node, { kind: 'replica', id: 'r' }], { node: NODE, daemon: '' }, 'GetNode')?.reason).toBe('no_identity');
  });
});
