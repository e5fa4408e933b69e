// Leases: typed calls. Never cached. Tokens stay strings (int64).
//
//   const { acquired, lease } = await db.acquireLease('maintenance/sweep', holder, 30_000);
//   if (acquired) { ...work, presenting lease.token...; await db.renewLease(lease.name, holder, lease.token, 30_000); }
import type { Lease__Output } from '@sfdb/proto/gen/sfdb/v1/Lease';
import type { CallOptions, Transport } from '../transport.js';
import type { Page } from './nodes.js';

/** `remainingMs` is by database time at the moment of the answer (0 when expired). */
export type Lease = Lease__Output;

export function leasesApi(t: Transport) {
  return {
    /**
     * Takes the lease when it is free, released or expired (the token grows), or extends it
     * when `holder` has it already (token unchanged). Held by another: acquired=false and
     * the lease as it stands. `expiryAnnounced`: the tier publishes `lease/<name>` when the
     * lease ends unrenewed, so a standby on the change feed can wait for that topic alone.
     */
    async acquireLease(
      name: string,
      holder: string,
      ttlMs: number,
      opts?: CallOptions,
    ): Promise<{ acquired: boolean; lease: Lease; expiryAnnounced: boolean }> {
      const r = await t.call('AcquireLease', { name, holder, ttlMs }, opts);
      return { acquired: r.acquired, lease: r.lease as Lease, expiryAnnounced: r.expiryAnnounced };
    },

    /** Extends a live lease held at this holder and token; else throws Fenced. */
    async renewLease(name: string, holder: string, token: string, ttlMs: number, opts?: CallOptions): Promise<Lease> {
      return (await t.call('RenewLease', { name, holder, token, ttlMs }, opts)).lease as Lease;
    },

    /** Gives the lease up; false when this holder and token do not hold it (nothing written). */
    async releaseLease(name: string, holder: string, token: string, opts?: CallOptions): Promise<boolean> {
      return (await t.call('ReleaseLease', { name, holder, token }, opts)).released;
    },

    async getLease(name: string, opts?: CallOptions): Promise<Lease | undefined> {
      const r = await t.call('GetLease', { name }, opts);
      return r.found && r.lease ? r.lease : undefined;
    },

    async listLeases(page: { prefix?: string; pageSize?: number; pageToken?: string } = {}, opts?: CallOptions): Promise<Page<Lease>> {
      const r = await t.call('ListLeases', page, opts);
      return { items: r.leases, nextPageToken: r.nextPageToken };
    },
  };
}

export type LeasesApi = ReturnType<typeof leasesApi>;
