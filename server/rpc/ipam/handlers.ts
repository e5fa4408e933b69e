// IPAM reservations: which owner holds which address of an IPAM. Never cached: always
// read through. Addresses are stored in their canonical text form (IPv4 dotted quad,
// IPv6 compressed lower-case as inet_ntop writes it), so '2001:DB8:0::1' and
// '2001:db8::1' are the same reservation.
import type { Reservation } from '@sfdb/proto/gen/sfdb/v1/Reservation';
import { ConflictError, TooLargeError } from '../../errors.js';
import { decodePageToken, page } from '../../paging.js';
import { topics } from '@sfdb/proto/topics';
import type { ChangeRow } from '../../changefeed/queries.js';
import { RerunTransactionError } from '../../db/retryable.js';
import { isoTime } from '../../time.js';
import * as v from '../../validate.js';
import type { Handlers } from '../context.js';
import { holdFence, optionalFence } from '../fence.js';
import { objectTypeField, objectTypeFromColumn } from '../object-types.js';
import { lockTargets } from '../targets.js';
import * as q from './queries.js';

/**
 * GetAddressesInUse answers at most this many addresses (the size of an IPv4 /16, about
 * 3 MB on the wire). A larger IPAM answers OUT_OF_RANGE and is read with
 * ListReservations.
 */
export const MAX_ADDRESSES_IN_USE = 65_536;

function toReservation(row: q.ReservationRow): Reservation {
  return {
    ipamUuid: row.ipam_uuid,
    address: row.address,
    ownerType: objectTypeFromColumn(row.owner_type),
    ownerUuid: row.owner_uuid,
    reservedAt: isoTime(row.reserved_at),
  };
}

/** A reservation of `ipamUuid` came or went: reconcilers reading only what changed hear it. */
function reservationChange(ipamUuid: string): ChangeRow {
  return { topic: topics.ipamReservations(), objectType: 'ipam_reservation', objectId: ipamUuid, kind: 'updated' };
}

export const ipamHandlers: Handlers<'ReserveAddress' | 'ReleaseAddress' | 'ListReservations' | 'GetAddressesInUse'> = {
  /**
   * Idempotent for the holder (created=false); an address held by another owner is a
   * Conflict. The IPAM and the owner must exist (NOT_FOUND naming ipam_uuid or owner_uuid).
   */
  async ReserveAddress(req, { write }) {
    const a = {
      ipamUuid: v.uuid('ipam_uuid', req.ipamUuid),
      address: v.ipAddress('address', req.address, { required: true }),
      ownerType: objectTypeField('owner_type', req.ownerType),
      ownerUuid: v.uuid('owner_uuid', req.ownerUuid),
    };
    const fence = optionalFence(req.fence);
    return write(async (tx, publish) => {
      await holdFence(tx, fence);
      // Both stay while we write (server/rpc/targets.ts).
      await lockTargets(tx, [
        { field: 'ipam_uuid', type: 'ipam', uuid: a.ipamUuid },
        { field: 'owner_uuid', type: a.ownerType, uuid: a.ownerUuid },
      ]);
      const inserted = await q.insertReservation(tx, a);
      // Either our own insert or a shared lock on the holder's row: it cannot vanish here.
      const row = await q.selectReservationShared(tx, a.ipamUuid, a.address);
      if (!row) throw new RerunTransactionError('reservation vanished inside its transaction');
      if (row.owner_type !== a.ownerType || row.owner_uuid !== a.ownerUuid) {
        throw new ConflictError(`address ${a.address} of ipam ${a.ipamUuid} is held by another owner`);
      }
      if (inserted > 0) publish(reservationChange(a.ipamUuid));
      return { reservation: toReservation(row), created: inserted > 0 };
    });
  },

  /** released=false when nothing was reserved; with owner_uuid, another holder is a Conflict. */
  async ReleaseAddress(req, { sql, write }) {
    const ipamUuid = v.uuid('ipam_uuid', req.ipamUuid);
    const address = v.ipAddress('address', req.address, { required: true });
    const ownerUuid = v.optionalUuid('owner_uuid', req.ownerUuid);
    const fence = optionalFence(req.fence);
    const released = await write(async (tx, publish) => {
      await holdFence(tx, fence);
      const n = ownerUuid === '' ? await q.deleteReservation(tx, ipamUuid, address) : await q.deleteOwnedReservation(tx, ipamUuid, address, ownerUuid);
      if (n > 0) publish(reservationChange(ipamUuid));
      return n > 0;
    });
    if (released || ownerUuid === '') return { released };
    if (await q.selectReservation(sql, ipamUuid, address)) {
      throw new ConflictError(`address ${address} of ipam ${ipamUuid} is held by another owner`);
    }
    return { released: false };
  },

  async ListReservations(req, { sql }) {
    const ipamUuid = v.uuid('ipam_uuid', req.ipamUuid);
    const limit = v.pageSize('page_size', req.pageSize);
    const after = decodePageToken('page_token', req.pageToken, 1);
    const rows = await q.listReservations(sql, ipamUuid, after?.[0], limit + 1);
    const { items, nextPageToken } = page(rows, limit, (r) => [r.address]);
    return { reservations: items.map(toReservation), nextPageToken };
  },

  async GetAddressesInUse(req, { sql }) {
    const ipamUuid = v.uuid('ipam_uuid', req.ipamUuid);
    const addresses = await q.selectAddresses(sql, ipamUuid, MAX_ADDRESSES_IN_USE + 1);
    if (addresses.length > MAX_ADDRESSES_IN_USE) {
      // Never a silently short answer: a reconciler would take missing addresses as free.
      throw new TooLargeError(`ipam ${ipamUuid} has more than ${MAX_ADDRESSES_IN_USE} reservations: page through them with ListReservations`);
    }
    return { addresses };
  },
};
