// IPAM reservations: typed calls. Never cached: every call reads through.
import type { Reservation__Output } from '@sfdb/proto/gen/sfdb/v1/Reservation';
import { fenceField } from '../fence.js';
import type { FencedCallOptions } from '../fence.js';
import type { CallOptions, Transport } from '../transport.js';
import type { Page } from './nodes.js';
import type { ObjectType } from './objects.js';

/** One reserved address; `address` is the canonical text form the server stored. */
export type IpamReservation = Reservation__Output;

export interface ReserveAddressInput {
  ipamUuid: string;
  /** IPv4 or IPv6; stored (and answered) in canonical form. */
  address: string;
  ownerType: ObjectType;
  ownerUuid: string;
}

export function ipamApi(t: Transport) {
  return {
    /** Reserves an address; `created: false` when this owner already held it, Conflict when another does. */
    async reserveAddress(input: ReserveAddressInput, opts?: FencedCallOptions): Promise<{ reservation: IpamReservation; created: boolean }> {
      const r = await t.call('ReserveAddress', { ...input, ...fenceField(opts) }, opts);
      return { reservation: r.reservation as IpamReservation, created: r.created };
    },

    /**
     * Releases an address; false when it was not reserved. With `ownerUuid`, releases only
     * that owner's reservation (another holder: Conflict).
     */
    async releaseAddress(ipamUuid: string, address: string, opts?: FencedCallOptions & { ownerUuid?: string }): Promise<boolean> {
      const r = await t.call('ReleaseAddress', { ipamUuid, address, ownerUuid: opts?.ownerUuid ?? '', ...fenceField(opts) }, opts);
      return r.released;
    },

    /** One IPAM's reservations in address (text) order, a page at a time. */
    async listReservations(
      ipamUuid: string,
      page: { pageSize?: number; pageToken?: string } = {},
      opts?: CallOptions,
    ): Promise<Page<IpamReservation>> {
      const r = await t.call('ListReservations', { ipamUuid, ...page }, opts);
      return { items: r.reservations, nextPageToken: r.nextPageToken };
    },

    /** Every reserved address of one IPAM (at most 65 536; page a larger one with listReservations). */
    async getAddressesInUse(ipamUuid: string, opts?: CallOptions): Promise<string[]> {
      return (await t.call('GetAddressesInUse', { ipamUuid }, opts)).addresses;
    },
  };
}

export type IpamApi = ReturnType<typeof ipamApi>;
