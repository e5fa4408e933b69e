// mTLS: the server's credentials (client certificates required and checked against the
// CA), the credentials a replica uses towards its peers (its own certificate), and the
// caller check — the x-sfdb-caller-node a call claims must be the node its certificate
// names, replica-only RPCs need a replica's certificate, and what a request asks beyond
// its RPC (REQUEST_RULES): an operator hold is set or released with an operator's
// certificate only, and a node's certificate reports its own daemons' states only.
// Identities: proto/identity.ts; the table for operators: docs/deploying.md, mTLS.
import * as grpc from '@grpc/grpc-js';
import type { PeerCertificate } from 'node:tls';
import { identitiesOf } from '@sfdb/proto/identity';
import type { Identity } from '@sfdb/proto/identity';
import type { TlsFiles } from '../config.js';
import type { Caller } from '../caller.js';
import { echo } from '../errors.js';

export function serverCredentials(tls: TlsFiles | undefined): grpc.ServerCredentials {
  if (!tls) return grpc.ServerCredentials.createInsecure();
  return grpc.ServerCredentials.createSsl(tls.ca, [{ cert_chain: tls.cert, private_key: tls.key }], true);
}

/** What a replica presents to its peers (pokes): its own certificate. */
export function peerCredentials(tls: TlsFiles | undefined): grpc.ChannelCredentials {
  return tls ? grpc.credentials.createSsl(tls.ca, tls.key, tls.cert) : grpc.credentials.createInsecure();
}

/** RPCs only another replica may call. */
export const REPLICA_ONLY: ReadonlySet<string> = new Set(['PokeChanges']);

export type DenialReason = 'no_identity' | 'node_mismatch' | 'replica_only' | 'operator_only';

/** What a request of one RPC asks beyond calling it. */
interface RequestRule {
  /** The request field only an operator's certificate may use, when this request uses it. */
  readonly operatorOnly?: (request: Record<string, unknown>) => string | undefined;
  /** The field naming the node whose rows the request writes (proto name, proto-loader key): a node's certificate names its own. */
  readonly ownNode?: { readonly field: string; readonly key: string };
}

/** An enum field that asks for something: neither absent nor its UNSPECIFIED (0). */
const given = (value: unknown): boolean => value !== undefined && value !== 0 && !(typeof value === 'string' && value.endsWith('_UNSPECIFIED'));

/**
 * The request rules, by RPC. An operator's hold (sf-ctl stop-daemon) keeps a daemon
 * stopped across restarts of its process: the daemon, which runs with its node's
 * certificate, must not be able to lift it, nor hold another node's daemon, nor report
 * another node's states.
 */
const REQUEST_RULES: Readonly<Record<string, RequestRule>> = {
  SetNodeDaemonState: {
    operatorOnly: (r) => (given(r['operatorHold']) ? 'operator_hold' : undefined),
    ownNode: { field: 'node_uuid', key: 'nodeUuid' },
  },
};

export interface Denial {
  reason: DenialReason;
  message: string;
}

/** Why a call with this certificate identity, these claims and this request (as decoded) is refused, or undefined. */
export function checkCaller(identities: readonly Identity[], caller: Caller, operation: string, request?: unknown): Denial | undefined {
  if (identities.length !== 1) {
    return {
      reason: 'no_identity',
      message: `client certificate: names ${identities.length === 0 ? 'no' : 'more than one'} sfdb identity (a SAN URI sfdb://node/<uuid>, sfdb://replica/<id> or sfdb://operator/<name>)`,
    };
  }
  const id = identities[0] as Identity;
  if (REPLICA_ONLY.has(operation) && id.kind !== 'replica') {
    return { reason: 'replica_only', message: `${operation}: only a tier replica's certificate may call it` };
  }
  const claimed = caller.node;
  if (id.kind === 'node' && claimed !== id.uuid) {
    return { reason: 'node_mismatch', message: `x-sfdb-caller-node: must be ${id.uuid}, the node of the client certificate (got ${echo(claimed)})` };
  }
  if (id.kind !== 'node' && claimed !== '') {
    return { reason: 'node_mismatch', message: `x-sfdb-caller-node: a ${id.kind} certificate claims no node (got ${echo(claimed)})` };
  }
  const rule = REQUEST_RULES[operation];
  if (rule === undefined || typeof request !== 'object' || request === null) return undefined;
  const fields = request as Record<string, unknown>;
  const operatorOnly = rule.operatorOnly?.(fields);
  if (operatorOnly !== undefined && id.kind !== 'operator') {
    return { reason: 'operator_only', message: `${operatorOnly}: only an operator's certificate (sfdb://operator/<name>) may set or release it; this call's is a ${id.kind}'s` };
  }
  const named = rule.ownNode === undefined ? undefined : fields[rule.ownNode.key];
  if (rule.ownNode && id.kind === 'node' && named !== id.uuid) {
    return { reason: 'node_mismatch', message: `${rule.ownNode.field}: a node's certificate writes its own node's rows only: must be ${id.uuid} (got ${echo(String(named))})` };
  }
  return undefined;
}

/** The sfdb identities of the call's verified client certificate ([] without TLS). */
export function callIdentities(call: { getAuthContext?: () => { sslPeerCertificate?: PeerCertificate } }): Identity[] {
  return identitiesOf(call.getAuthContext?.().sslPeerCertificate?.subjectaltname);
}
