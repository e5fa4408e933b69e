// Nodes: typed calls. Point reads answer undefined for "not found"; an outage throws
// DatabaseUnavailable. getNode reads through the client's static-object cache
// (../cache.ts) and answers a frozen value; this process's updateNode and deleteNode
// evict. getNodeByFqdn, listings, heartbeats and the cluster status are not cached.
import type { GetClusterStatusResponse__Output } from '@sfdb/proto/gen/sfdb/v1/GetClusterStatusResponse';
import type { Node__Output } from '@sfdb/proto/gen/sfdb/v1/Node';
import { evictAfter, readThrough } from '../read-through.js';
import type { StaticObjectCache } from '../cache.js';
import type { CallOptions, Transport } from '../transport.js';

export type Node = Node__Output;
export type ClusterStatus = GetClusterStatusResponse__Output;

export interface Page<T> {
  items: T[];
  /** Empty on the last page. */
  nextPageToken: string;
}

/** `cache`: the static-object cache getNode reads through (undefined: none). */
export function nodesApi(t: Transport, cache?: StaticObjectCache) {
  return {
    async createNode(input: { uuid: string; fqdn: string; ipAddress?: string }, opts?: CallOptions): Promise<{ node: Node; created: boolean }> {
      const r = await t.call('CreateNode', input, opts);
      return { node: r.node as Node, created: r.created };
    },

    /** Through the static-object cache: the answer is frozen, never to be mutated. */
    getNode(uuid: string, opts?: CallOptions): Promise<Readonly<Node> | undefined> {
      return readThrough(cache, 'NODE', uuid, async () => {
        const r = await t.call('GetNode', { uuid }, opts);
        return r.found && r.node ? r.node : undefined;
      });
    },

    async getNodeByFqdn(fqdn: string, opts?: CallOptions): Promise<Node | undefined> {
      const r = await t.call('GetNodeByFqdn', { fqdn }, opts);
      return r.found && r.node ? r.node : undefined;
    },

    async listNodes(page: { pageSize?: number; pageToken?: string } = {}, opts?: CallOptions): Promise<Page<Node>> {
      const r = await t.call('ListNodes', page, opts);
      return { items: r.nodes, nextPageToken: r.nextPageToken };
    },

    /** Updates the named fields; with `expectedVersion`, only at that version (else Conflict). */
    async updateNode(
      uuid: string,
      changes: { fqdn?: string; ipAddress?: string },
      opts?: CallOptions & { expectedVersion?: string },
    ): Promise<Node> {
      const updateMask = [
        ...(changes.fqdn !== undefined ? ['fqdn'] : []),
        ...(changes.ipAddress !== undefined ? ['ip_address'] : []),
      ];
      const r = await evictAfter(
        cache,
        'NODE',
        uuid,
        () => t.call('UpdateNode', { uuid, ...changes, updateMask, expectedVersion: opts?.expectedVersion ?? '0' }, opts),
        (a) => a.changeSeq,
      );
      return r.node as Node;
    },

    deleteNode(uuid: string, opts?: CallOptions): Promise<boolean> {
      return evictAfter(cache, 'NODE', uuid, async () => (await t.call('DeleteNode', { uuid }, opts)).deleted);
    },

    /** Records a heartbeat (database time) with stats (a JSON-able object, ≤ 16 KiB). */
    async nodeHeartbeat(nodeUuid: string, stats: object = {}, opts?: CallOptions): Promise<string> {
      return (await t.call('NodeHeartbeat', { nodeUuid, stats: JSON.stringify(stats) }, opts)).databaseTime;
    },

    async getClusterStatus(opts?: CallOptions): Promise<ClusterStatus> {
      return t.call('GetClusterStatus', {}, opts);
    },
  };
}
