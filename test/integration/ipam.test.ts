import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Conflict, InvalidArgument } from '../../client/index.js';
import type { IpamReservation } from '../../client/index.js';
import { newNode, newObject } from '../helpers/targets.js';
import { useTestTier } from '../helpers/tier.js';

const { t, db } = useTestTier();

describe('ipam', () => {
  it('reserves idempotently for the holder and refuses another owner', async () => {
    const ipamUuid = await newObject(db, 'IPAM');
    const owner = await newObject(db, 'NetworkInterface');
    const first = await db.reserveAddress({ ipamUuid, address: '10.1.0.5', ownerType: 'NETWORK_INTERFACE', ownerUuid: owner });
    expect(first.created).toBe(true);
    expect(first.reservation).toMatchObject({ ipamUuid, address: '10.1.0.5', ownerType: 'NETWORK_INTERFACE', ownerUuid: owner });
    expect(first.reservation.reservedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

    const again = await db.reserveAddress({ ipamUuid, address: '10.1.0.5', ownerType: 'NETWORK_INTERFACE', ownerUuid: owner });
    expect(again).toEqual({ reservation: first.reservation, created: false });

    // Another owner, or the same uuid as another type, is refused and changes nothing.
    await expect(db.reserveAddress({ ipamUuid, address: '10.1.0.5', ownerType: 'NETWORK_INTERFACE', ownerUuid: await newObject(db, 'NetworkInterface') }))
      .rejects.toBeInstanceOf(Conflict);
    await newObject(db, 'Instance', { uuid: owner });
    await expect(db.reserveAddress({ ipamUuid, address: '10.1.0.5', ownerType: 'INSTANCE', ownerUuid: owner }))
      .rejects.toBeInstanceOf(Conflict);
    expect(await t.count('ipam_reservations', 'ipam_uuid = ?', [ipamUuid])).toBe(1);

    // The same address in another IPAM is another reservation.
    const other = await db.reserveAddress({ ipamUuid: await newObject(db, 'IPAM'), address: '10.1.0.5', ownerType: 'INSTANCE', ownerUuid: await newObject(db, 'Instance') });
    expect(other.created).toBe(true);
  });

  it('stores IPv6 addresses in canonical form', async () => {
    const ipamUuid = await newObject(db, 'IPAM');
    const owner = await newObject(db, 'Instance');
    const r = await db.reserveAddress({ ipamUuid, address: '2001:DB8:0:0:0:0:0:1', ownerType: 'INSTANCE', ownerUuid: owner });
    expect(r.reservation.address).toBe('2001:db8::1');
    expect((await db.reserveAddress({ ipamUuid, address: '2001:db8::1', ownerType: 'INSTANCE', ownerUuid: owner })).created).toBe(false);
    await expect(db.reserveAddress({ ipamUuid, address: '2001:0db8::0001', ownerType: 'INSTANCE', ownerUuid: await newObject(db, 'Instance') }))
      .rejects.toBeInstanceOf(Conflict);
    expect(await db.getAddressesInUse(ipamUuid)).toEqual(['2001:db8::1']);
    expect(await db.releaseAddress(ipamUuid, '2001:db8:0::1')).toBe(true);
    expect(await db.getAddressesInUse(ipamUuid)).toEqual([]);
  });

  it('releases: idempotently, and only for the holder when an owner is named', async () => {
    const ipamUuid = await newObject(db, 'IPAM');
    const owner = await newObject(db, 'Instance');
    await db.reserveAddress({ ipamUuid, address: '192.168.7.1', ownerType: 'INSTANCE', ownerUuid: owner });
    await db.reserveAddress({ ipamUuid, address: '192.168.7.2', ownerType: 'INSTANCE', ownerUuid: owner });

    await expect(db.releaseAddress(ipamUuid, '192.168.7.1', { ownerUuid: randomUUID() })).rejects.toBeInstanceOf(Conflict);
    expect(await t.count('ipam_reservations', 'ipam_uuid = ?', [ipamUuid])).toBe(2);
    expect(await db.releaseAddress(ipamUuid, '192.168.7.1', { ownerUuid: owner })).toBe(true);
    expect(await db.releaseAddress(ipamUuid, '192.168.7.1', { ownerUuid: owner })).toBe(false);
    expect(await db.releaseAddress(ipamUuid, '192.168.7.2')).toBe(true);
    expect(await db.releaseAddress(ipamUuid, '192.168.7.2')).toBe(false);
    expect(await t.count('ipam_reservations', 'ipam_uuid = ?', [ipamUuid])).toBe(0);

    // Released addresses can be taken by someone else.
    expect((await db.reserveAddress({ ipamUuid, address: '192.168.7.1', ownerType: 'NODE', ownerUuid: await newNode(db) })).created).toBe(true);
  });

  it('lists one IPAM page by page, every reservation exactly once', async () => {
    const ipamUuid = await newObject(db, 'IPAM');
    const neighbour = await newObject(db, 'IPAM');
    const owner = await newObject(db, 'Instance');
    const addresses = Array.from({ length: 23 }, (_, i) => `10.9.${i % 3}.${i}`);
    for (const address of addresses) {
      await db.reserveAddress({ ipamUuid, address, ownerType: 'INSTANCE', ownerUuid: owner });
      await db.reserveAddress({ ipamUuid: neighbour, address, ownerType: 'INSTANCE', ownerUuid: owner });
    }
    const seen: IpamReservation[] = [];
    let pageToken = '';
    let pages = 0;
    do {
      const page = await db.listReservations(ipamUuid, { pageSize: 4, pageToken });
      expect(page.items.length).toBeLessThanOrEqual(4);
      seen.push(...page.items);
      pageToken = page.nextPageToken;
      pages++;
    } while (pageToken !== '');
    expect(pages).toBe(6);
    const listed = seen.map((r) => r.address);
    expect(listed).toEqual([...addresses].sort());
    expect(new Set(listed).size).toBe(addresses.length);
    expect(seen.every((r) => r.ipamUuid === ipamUuid)).toBe(true);
    expect(await db.getAddressesInUse(ipamUuid)).toEqual([...addresses].sort());
    expect(await db.getAddressesInUse(randomUUID())).toEqual([]);
  });

  it('refuses bad input naming the field and writes nothing', async () => {
    const ipamUuid = await newObject(db, 'IPAM');
    const owner = await newObject(db, 'Instance');
    await db.reserveAddress({ ipamUuid, address: '10.2.0.1', ownerType: 'INSTANCE', ownerUuid: owner });
    const ok = { ipamUuid, address: '10.2.0.2', ownerType: 'INSTANCE' as const, ownerUuid: owner };
    const cases: [() => Promise<unknown>, string][] = [
      [() => db.reserveAddress({ ...ok, ipamUuid: 'not-a-uuid' }), 'ipam_uuid'],
      [() => db.reserveAddress({ ...ok, address: '' }), 'address'],
      [() => db.reserveAddress({ ...ok, address: '10.2.0.256' }), 'address'],
      [() => db.reserveAddress({ ...ok, address: '010.2.0.2' }), 'address'],
      [() => db.reserveAddress({ ...ok, address: 'fe80::1%eth0' }), 'address'],
      [() => db.reserveAddress({ ...ok, address: '10.2.0.0/24' }), 'address'],
      [() => db.reserveAddress({ ...ok, ownerType: 99 as never }), 'owner_type'],
      [() => db.call('ReserveAddress', { ipamUuid, address: '10.2.0.2', ownerUuid: owner }), 'owner_type'],
      [() => db.reserveAddress({ ...ok, ownerUuid: owner.toUpperCase() }), 'owner_uuid'],
      [() => db.releaseAddress(ipamUuid, 'nope'), 'address'],
      [() => db.releaseAddress(ipamUuid, '10.2.0.1', { ownerUuid: 'x' }), 'owner_uuid'],
      [() => db.releaseAddress('', '10.2.0.1'), 'ipam_uuid'],
      [() => db.listReservations(ipamUuid, { pageSize: 1001 }), 'page_size'],
      [() => db.listReservations(ipamUuid, { pageSize: -1 }), 'page_size'],
      [() => db.listReservations(ipamUuid, { pageToken: '!!garbage' }), 'page_token'],
      [() => db.getAddressesInUse('x'), 'ipam_uuid'],
    ];
    const before = await t.count('ipam_reservations');
    for (const [call, field] of cases) {
      const err = await call().then(() => undefined, (e: unknown) => e);
      expect(err, field).toBeInstanceOf(InvalidArgument);
      expect((err as InvalidArgument).field, field).toBe(field);
    }
    expect(await t.count('ipam_reservations')).toBe(before);
    expect(await db.getAddressesInUse(ipamUuid)).toEqual(['10.2.0.1']);
  });
});
