// Change-feed topics: the one place their text is built, for the tier that writes change
// rows and the clients that wait on them. A topic is scoped so that a waiter hears only
// what it acts on (a node's queue, a node's instances, one daemon's state...).
//
//   daemon/<node>/<daemon>        SetNodeDaemonState of that daemon: by itself (reported), by anyone else (state) (id: daemon name)
//   queue/<node>/<queue>          an item became due-able: Enqueue, Release, requeue (id: item id)
//   transfers/<node>              CreateBlobTransfer, UpdateBlobTransfer        (id: transfer id)
//   node/<node>/<type>            an object placed on the node: created, updated, deleted, state (id: uuid)
//   namespace/<ns>/<type>         an object of the namespace: created, updated, deleted, state (id: uuid)
//   static/<type>                 static values updated or deleted: cache invalidation (id: uuid)
//   references/<type>             a reference to an object of <type> recorded or removed (id: target uuid)
//   ipam-reservations             ReserveAddress, ReleaseAddress               (id: IPAM uuid)
//   cluster-config                SetClusterConfig                             (id: key)
//   lease/<name>                  a lease released or ended unrenewed (updated), taken by a new holder (state) (id: lease name)
//
// <type> is the object type's column name: 'instance', 'network_interface', 'node'...
// Writes nobody waits on publish nothing: node heartbeats and stats, object attributes,
// events, a lease's creation and renewals, claims and their renewals.

/** What a change row says happened. */
export const CHANGE_KINDS = ['created', 'updated', 'deleted', 'state', 'reported'] as const;
export type ChangeKindName = (typeof CHANGE_KINDS)[number];

/** The proto enum name of each kind, and back. */
export const CHANGE_KIND_ENUM = {
  created: 'CHANGE_CREATED',
  updated: 'CHANGE_UPDATED',
  deleted: 'CHANGE_DELETED',
  state: 'CHANGE_STATE',
  reported: 'CHANGE_REPORTED',
} as const satisfies Record<ChangeKindName, string>;

/** Most topics in one WaitForChanges or GetChangesSince. */
export const MAX_TOPICS_PER_WAIT = 64;
/** The longest long-poll a replica holds (ms); connection-age grace must exceed it. */
export const MAX_WAIT_MS = 30_000;
/** Longest topic text. */
export const MAX_TOPIC_CHARS = 200;
/** What a topic may look like: lower-case names and uuids joined by '/'. */
export const TOPIC_PATTERN = /^[a-z0-9][a-z0-9_.:/-]*$/;

/** 'NETWORK_INTERFACE' (the proto ObjectType name) → 'network_interface'. */
export function typeTopicName(objectType: string): string {
  return objectType.toLowerCase();
}

export const topics = {
  daemonState: (nodeUuid: string, daemon: string): string => `daemon/${nodeUuid}/${daemon}`,
  queue: (nodeUuid: string, queue: string): string => `queue/${nodeUuid}/${queue}`,
  transfers: (nodeUuid: string): string => `transfers/${nodeUuid}`,
  nodeObjects: (nodeUuid: string, type: string): string => `node/${nodeUuid}/${typeTopicName(type)}`,
  namespaceObjects: (namespace: string, type: string): string => `namespace/${namespace}/${typeTopicName(type)}`,
  staticValues: (type: string): string => `static/${typeTopicName(type)}`,
  references: (toType: string): string => `references/${typeTopicName(toType)}`,
  ipamReservations: (): string => 'ipam-reservations',
  clusterConfig: (): string => 'cluster-config',
  lease: (name: string): string => `lease/${name}`,
} as const;
