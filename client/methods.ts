// How each RPC may be retried. A read retries UNAVAILABLE freely; a write only when it
// is idempotent (client-chosen ids, set-to-a-value, epoch- or token-asserting writes).
// Everything else fails fast with DatabaseUnavailable: it may or may not have run —
// unless it never left this process, or the tier's refusal says it took no effect (the
// noEffect trailer of @sfdb/proto/errors: refused before any of its statements was sent).
import type { MethodName } from '@sfdb/proto/types';

export type RetryClass = 'read' | 'idempotent' | 'once';

export const RETRY_CLASS: Record<MethodName, RetryClass> = {
  // Nodes
  CreateNode: 'idempotent', GetNode: 'read', GetNodeByFqdn: 'read', ListNodes: 'read',
  UpdateNode: 'once', DeleteNode: 'idempotent', NodeHeartbeat: 'idempotent', GetClusterStatus: 'read',
  // Daemon state
  SetNodeDaemonState: 'idempotent', GetNodeDaemonState: 'read', ListNodeDaemonStates: 'read',
  // Static objects: creation takes a client-chosen uuid.
  CreateInstance: 'idempotent', GetInstance: 'read', DeleteInstance: 'idempotent', ListInstances: 'read',
  CreateNetwork: 'idempotent', GetNetwork: 'read', DeleteNetwork: 'idempotent', ListNetworks: 'read',
  CreateNetworkInterface: 'idempotent', GetNetworkInterface: 'read', DeleteNetworkInterface: 'idempotent', ListNetworkInterfaces: 'read',
  CreateIPAM: 'idempotent', GetIPAM: 'read', DeleteIPAM: 'idempotent', ListIPAMs: 'read',
  CreateAgentOperation: 'idempotent', GetAgentOperation: 'read', DeleteAgentOperation: 'idempotent', ListAgentOperations: 'read',
  CreateBlob: 'idempotent', GetBlob: 'read', UpdateBlob: 'once', DeleteBlob: 'idempotent', ListBlobs: 'read',
  CreateArtifact: 'idempotent', GetArtifact: 'read', UpdateArtifact: 'once', DeleteArtifact: 'idempotent', ListArtifacts: 'read',
  CreateUpload: 'idempotent', GetUpload: 'read', UpdateUpload: 'once', DeleteUpload: 'idempotent', ListUploads: 'read',
  CreateNamespace: 'idempotent', GetNamespace: 'read', UpdateNamespace: 'once', DeleteNamespace: 'idempotent', ListNamespaces: 'read',
  // Object state and attributes: set-to-a-value.
  GetObjectState: 'read', SetObjectState: 'idempotent', DeleteObjectState: 'idempotent', ListObjectsByState: 'read',
  GetObjectAttributes: 'read', SetObjectAttributes: 'idempotent', DeleteObjectAttributes: 'idempotent',
  // Queue: Dequeue claims, so a blind retry could strand a claim until its lease ends.
  Enqueue: 'idempotent', Dequeue: 'once', RenewClaim: 'idempotent', Resolve: 'idempotent', Release: 'once',
  GetQueueLength: 'read', ListStuckClaims: 'read', GetWorkItem: 'read', ListWorkItems: 'read',
  // Leases: acquire by the same holder is a renewal.
  AcquireLease: 'idempotent', RenewLease: 'idempotent', ReleaseLease: 'idempotent', GetLease: 'read', ListLeases: 'read',
  // IPAM
  ReserveAddress: 'idempotent', ReleaseAddress: 'idempotent', ListReservations: 'read', GetAddressesInUse: 'read',
  // References
  RecordReference: 'idempotent', RemoveReference: 'idempotent', GetReferencesFrom: 'read', GetReferencesTo: 'read',
  // Events: a batch without ids would be recorded twice.
  RecordEvents: 'once', ListObjectEvents: 'read', PruneEvents: 'idempotent',
  // Blob transfers
  CreateBlobTransfer: 'idempotent', GetBlobTransfersForNode: 'read', UpdateBlobTransfer: 'idempotent',
  // Cluster config
  GetClusterConfig: 'read', SetClusterConfig: 'once',
  // Maintenance: fenced by the caller's lease; running a sweep twice is harmless.
  RequeueExpiredClaims: 'idempotent', SweepReplicaRegistry: 'idempotent',
  // Change feed: waiting and paging are reads; pruning deletes by age under a lease;
  // PokeChanges is replica to replica (clients never call it).
  WaitForChanges: 'read', GetChangesSince: 'read', PokeChanges: 'once', PruneChanges: 'idempotent', WatchReplicas: 'read',
};
