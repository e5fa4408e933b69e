// Leases: named rows with a holder, an expiry by database time and a fencing token that
// only grows. The rules:
// - AcquireLease creates the lease (token 1), takes a released or expired one (token + 1),
//   or extends a live one held by the same holder (token unchanged: acquire by the same
//   holder is a renewal). A live lease of another holder answers acquired=false and the
//   lease as it stands. Concurrent acquirers serialise on the row lock: one winner.
// - RenewLease extends only a live lease at the caller's holder and token; anything else
//   is FAILED_PRECONDITION (Fenced) and nothing is written.
// - ReleaseLease with a matching holder and token empties the holder and ends the lease
//   now (the row and its token stay); a mismatch answers released=false, not an error,
//   so a retried release is harmless.
// - A release and a change of holder publish `lease/<name>`, so standbys waiting on the
//   change feed try at once instead of on an interval; creation and renewals publish
//   nothing (a renewal only moves the end later: nobody needs to hear it). A lease that
//   ends unrenewed is announced on the same topic by the replicas' expiry watchers
//   (expiry.ts): an answer "held by another" tells this replica's watcher to look at the
//   lease's end, and says `expiry_announced` so the standby need not ask then.
// Names are 1..128 of a-z 0-9 _ . : - / starting with a letter or digit.
import type { Lease } from '@sfdb/proto/gen/sfdb/v1/Lease';
import { topics } from '@sfdb/proto/topics';
import { RerunTransactionError } from '../../db/retryable.js';
import { FencedError, InvalidArgumentError } from '../../errors.js';
import { decodePageToken, page } from '../../paging.js';
import { isoTime } from '../../time.js';
import * as v from '../../validate.js';
import type { Handlers } from '../context.js';
import * as q from './queries.js';

const MAX_NAME = 128;
const LEASE_PREFIX = /^[a-z0-9_.:/-]*$/;
const MIN_TTL_MS = 1_000;
const MAX_TTL_MS = 3_600_000;

function leasePrefix(field: string, value: string): string {
  if (value.length > MAX_NAME) throw new InvalidArgumentError(field, `longer than ${MAX_NAME} characters`);
  if (!LEASE_PREFIX.test(value)) throw new InvalidArgumentError(field, 'must be lower-case letters, digits, _ . : - /');
  return value;
}

/** A LIKE pattern matching names that start with `prefix` literally ('!' escapes). */
function likePrefix(prefix: string): string {
  return prefix.replace(/[!%_]/g, (c) => `!${c}`);
}

function toLease(row: q.LeaseRow): Lease {
  return {
    name: row.name,
    holder: row.holder,
    token: row.token,
    expiresAt: isoTime(row.expires_at),
    remainingMs: row.remaining_ms,
  };
}

function mustExist(row: q.LeaseRow | undefined, name: string): q.LeaseRow {
  if (!row) throw new Error(`lease ${name} vanished`);
  return row;
}

type LeaseMethods = 'AcquireLease' | 'RenewLease' | 'ReleaseLease' | 'GetLease' | 'ListLeases';

export const leaseHandlers: Handlers<LeaseMethods> = {
  async AcquireLease(req, { sql, write, leaseEnds }) {
    const a = {
      name: v.leaseName('name', req.name),
      holder: v.holder('holder', req.holder, { required: true }),
      ttlMs: v.int64('ttl_ms', req.ttlMs, MIN_TTL_MS, MAX_TTL_MS),
    };
    // A live lease of another holder — what a standby finds on nearly every try — is
    // answered from one plain read: no transaction, no row lock (1 statement, not 3). The
    // answer is the one the locking read would give had it run at that instant.
    const heldByAnother = (row: q.LeaseRow): { acquired: boolean; lease: Lease; expiryAnnounced: boolean } => {
      leaseEnds.expect(a.name, Number(row.remaining_ms));
      return { acquired: false, lease: toLease(row), expiryAnnounced: true };
    };
    const seen = await q.selectLease(sql, a.name);
    if (seen && seen.holder !== '' && seen.holder !== a.holder && q.isLive(seen)) return heldByAnother(seen);
    // Lease rows are never deleted: the second round always finds the row.
    for (let round = 0; round < 2; round++) {
      const answer = await write(async (tx, publish) => {
        const row = await q.lockLease(tx, a.name);
        if (!row) return undefined;
        // A take is conditional on the token locked: should the row have moved under the
        // lock (on Galera, a take through another node whose writeset aborted this
        // transaction), this one is rerun rather than issue a second holder a token.
        const take = async (): Promise<void> => {
          if ((await q.takeLease(tx, { ...a, token: row.token })) === 0) throw new RerunTransactionError(`lease ${a.name} moved past token ${row.token} under its lock`);
        };
        if (row.holder === '' || !q.isLive(row)) {
          await take();
          // A takeover is `state`: held again, its standbys have nothing to ask. What may free
          // the lease — a release, an end announced (./expiry.ts) — is `updated`.
          publish({ topic: topics.lease(a.name), objectType: 'lease', objectId: a.name, kind: 'state' });
        } else if (row.holder === a.holder) {
          // Ours and live: a renewal. Should it expire between the two statements, take it anew.
          if ((await q.extendLease(tx, { ...a, token: row.token })) === 0) await take();
        } else {
          return heldByAnother(row);
        }
        return { acquired: true, lease: toLease(mustExist(await q.selectLease(tx, a.name), a.name)), expiryAnnounced: true };
      });
      if (answer) return answer;
      // No row: create it outside the transaction (a locking read of a missing row takes
      // gap locks that would deadlock concurrent inserts). One creator wins.
      if (await q.insertLease(sql, a)) {
        return { acquired: true, lease: toLease(mustExist(await q.selectLease(sql, a.name), a.name)), expiryAnnounced: true };
      }
    }
    throw new Error(`lease ${a.name} could not be read or created`);
  },

  async RenewLease(req, { sql }) {
    const a = {
      name: v.leaseName('name', req.name),
      holder: v.holder('holder', req.holder, { required: true }),
      token: v.int64String('token', req.token, { min: 1n }),
      ttlMs: v.int64('ttl_ms', req.ttlMs, MIN_TTL_MS, MAX_TTL_MS),
    };
    const renewed = await sql.transaction(async (tx) => {
      if ((await q.extendLease(tx, a)) === 0) return undefined;
      return q.selectLease(tx, a.name);
    });
    if (renewed) return { lease: toLease(renewed) };
    const row = await q.selectLease(sql, a.name);
    if (!row) throw new FencedError(`name: lease ${a.name} does not exist`);
    if (row.holder !== a.holder || row.token !== a.token) {
      throw new FencedError(`lease ${a.name} is held by "${row.holder}" at token ${row.token}`);
    }
    throw new FencedError(`lease ${a.name} expired at ${isoTime(row.expires_at)}`);
  },

  async ReleaseLease(req, { write }) {
    const a = {
      name: v.leaseName('name', req.name),
      holder: v.holder('holder', req.holder, { required: true }),
      token: v.int64String('token', req.token, { min: 1n }),
    };
    const released = await write(async (tx, publish) => {
      const n = await q.releaseLease(tx, a);
      if (n > 0) publish({ topic: topics.lease(a.name), objectType: 'lease', objectId: a.name, kind: 'updated' });
      return n > 0;
    });
    return { released };
  },

  async GetLease(req, { sql }) {
    const row = await q.selectLease(sql, v.leaseName('name', req.name));
    return row ? { found: true, lease: toLease(row) } : { found: false };
  },

  async ListLeases(req, { sql }) {
    const prefix = leasePrefix('prefix', req.prefix);
    const limit = v.pageSize('page_size', req.pageSize);
    const after = decodePageToken('page_token', req.pageToken, 1);
    const rows = await q.listLeases(sql, { pattern: likePrefix(prefix), after: after?.[0], limit: limit + 1 });
    const { items, nextPageToken } = page(rows, limit, (r) => [r.name]);
    return { leases: items.map(toLease), nextPageToken };
  },
};
