// Cluster config: typed calls. Values travel as JSON text and are handed over parsed.
import { fenceField } from '../fence.js';
import type { FencedCallOptions } from '../fence.js';
import type { CallOptions, Transport } from '../transport.js';

export interface ClusterConfigEntry {
  /** The parsed JSON value. */
  value: unknown;
  /** A decimal string: 1 after the first write, one more after each. */
  version: string;
  updatedAt: string;
}

export function clusterConfigApi(t: Transport) {
  return {
    async getClusterConfig(key: string, opts?: CallOptions): Promise<ClusterConfigEntry | undefined> {
      const r = await t.call('GetClusterConfig', { key }, opts);
      if (!r.found) return undefined;
      return { value: JSON.parse(r.value) as unknown, version: r.version, updatedAt: r.updatedAt };
    },

    /**
     * Writes `value` (JSON-able, ≤ 64 KiB as JSON) and answers the new version.
     * `expectedVersion`: omitted or 0 writes unconditionally; -1 only if the key is absent;
     * N only if the key is at version N. A mismatch is a Conflict: re-read and decide again.
     */
    async setClusterConfig(
      key: string,
      value: unknown,
      opts?: FencedCallOptions & { expectedVersion?: string | number },
    ): Promise<string> {
      const text = JSON.stringify(value) as string | undefined;
      const r = await t.call('SetClusterConfig', { key, value: text ?? '', expectedVersion: opts?.expectedVersion ?? 0, ...fenceField(opts) }, opts);
      return r.version;
    },
  };
}

export type ClusterConfigApi = ReturnType<typeof clusterConfigApi>;
