// mTLS: the server's credentials (client certificates required and checked against the
// CA), the credentials a replica uses towards its peers (its own certificate), and the
// caller check — the x-sfdb-caller-node a call claims must be the node its certificate
// names, and replica-only RPCs need a replica's certificate. Identities: proto/identity.ts.
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

export type DenialReason = 'no_identity' | 'node_mismatch' | 'replica_only';

export interface Denial {
  reason: DenialReason;
  message: string;
}

/** Why a call with this certificate identity and these claims is refused, or undefined. */
export function checkCaller(identities: readonly Identity[], caller: Caller, operation: string): Denial | undefined {
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
  return undefined;
}

/** The sfdb identities of the call's verified client certificate ([] without TLS). */
export function callIdentities(call: { getAuthContext?: () => { sslPeerCertificate?: PeerCertificate } }): Identity[] {
  return identitiesOf(call.getAuthContext?.().sslPeerCertificate?.subjectaltname);
}
