// The change feed's RPCs: WaitForChanges (a unary long-poll), GetChangesSince, the
// replica-to-replica PokeChanges (after a commit; empty, a new replica announcing itself),
// and WatchReplicas (which peers stopped answering: held, in memory,
// changefeed/peer-probe.ts). All are served from the replica's window (no statement per
// waiter); a poke at most triggers one tail read (an announcement, one registry read). A
// long-poll's interest summary (proto/interest.ts) and its quiet reports narrow which
// changes wake it, never what it is answered.
import type { Change } from '@sfdb/proto/gen/sfdb/v1/Change';
import type { Interest__Output } from '@sfdb/proto/gen/sfdb/v1/Interest';
import { INTEREST_MAX_BYTES, INTEREST_MAX_HASHES, InterestFilter } from '@sfdb/proto/interest';
import { CHANGE_KIND_ENUM, MAX_TOPICS_PER_WAIT, MAX_TOPIC_CHARS, MAX_WAIT_MS, TOPIC_PATTERN } from '@sfdb/proto/topics';
import type { Interest } from '../../changefeed/waiters.js';
import { linkWriters } from '../../changefeed/writer-links.js';
import type { WindowEntry } from '../../changefeed/window.js';
import { echo } from '../../errors.js';
import * as v from '../../validate.js';
import type { Handlers } from '../context.js';

const MAX_POKE_SEQS = 10_000;
/** WatchReplicas holds at most this long (0 in the request means WATCH_DEFAULT_MS). */
const WATCH_MAX_MS = 600_000;
const WATCH_DEFAULT_MS = 300_000;
const WATCH_VERSION = /^[0-9]{0,20}$/;

/** 1..max (64 for a wait) distinct well-formed topics. */
function topicsField(field: string, values: readonly string[], max = MAX_TOPICS_PER_WAIT): ReadonlySet<string> {
  v.count(field, values, { min: 1, max });
  for (const t of values) {
    if (t.length > MAX_TOPIC_CHARS) throw new v.InvalidArgumentError(field, `a topic is longer than ${MAX_TOPIC_CHARS} characters`);
    if (!TOPIC_PATTERN.test(t)) throw new v.InvalidArgumentError(field, `"${t.slice(0, 64)}" is not a topic (lower-case names and uuids joined by /)`);
  }
  return new Set(values);
}

/** `values` (0..64), each one of the request's `topics`. */
function subsetOfTopics(field: string, values: readonly string[], topics: ReadonlySet<string>): ReadonlySet<string> {
  if (values.length === 0) return new Set();
  const subset = topicsField(field, values);
  for (const t of subset) {
    if (!topics.has(t)) throw new v.InvalidArgumentError(field, `${echo(t)} is not one of the request's topics`);
  }
  return subset;
}

/** What narrows the long-poll's waking (interest summary, quiet reports), or undefined when nothing does. */
function interestField(interest: Interest__Output | null, quietReportsField: readonly string[], topics: ReadonlySet<string>): Interest | undefined {
  const quietReports = subsetOfTopics('quiet_reports', quietReportsField, topics);
  if (interest === null || interest.topics.length === 0) return quietReports.size === 0 ? undefined : { topics: new Set(), filter: undefined, quietReports };
  const narrowed = subsetOfTopics('interest.topics', interest.topics, topics);
  if (interest.bloom.length < 1 || interest.bloom.length > INTEREST_MAX_BYTES) {
    throw new v.InvalidArgumentError('interest.bloom', `is ${interest.bloom.length} bytes; 1..${INTEREST_MAX_BYTES} when interest.topics is set`);
  }
  if (!Number.isInteger(interest.hashes) || interest.hashes < 1 || interest.hashes > INTEREST_MAX_HASHES) {
    throw new v.InvalidArgumentError('interest.hashes', `is ${interest.hashes}; 1..${INTEREST_MAX_HASHES}`);
  }
  // A copy: the request's buffer may be a view of grpc-js's receive buffer.
  return { topics: narrowed, filter: new InterestFilter(Uint8Array.from(interest.bloom), interest.hashes), quietReports };
}

function toChange(e: WindowEntry): Change {
  return { seq: String(e.seq), topic: e.topic, objectType: e.objectType, id: e.objectId, kind: CHANGE_KIND_ENUM[e.kind] };
}

export const changeHandlers: Handlers<'WaitForChanges' | 'GetChangesSince' | 'PokeChanges' | 'WatchReplicas'> = {
  async WaitForChanges(req, { feed, signal, trace }) {
    const topics = topicsField('topics', req.topics);
    const timeoutMs = v.int64('timeout_ms', String(req.timeoutMs), 0, MAX_WAIT_MS);
    const interest = interestField(req.interest, req.quietReports, topics);
    const r = await feed.wait(topics, req.cursor, timeoutMs === 0 ? MAX_WAIT_MS : timeoutMs, signal, interest);
    linkWriters(trace, r.changes);
    return { changes: r.changes.map(toChange), cursor: r.cursor, resync: r.resync };
  },

  async GetChangesSince(req, { feed }) {
    const topics = topicsField('topics', req.topics);
    const limit = v.pageSize('limit', req.limit);
    const r = await feed.since(req.cursor, topics, limit);
    return { changes: r.changes.map(toChange), cursor: r.cursor, resync: r.resync, more: r.more };
  },

  async PokeChanges(req, { feed }) {
    const replicaId = v.text('replica_id', req.replicaId, { max: 128, required: true });
    const ownerToken = v.uuid('owner_token', req.ownerToken);
    // No topics and no seqs: the sender announces itself once registered (changefeed/peers.ts).
    if (req.topics.length === 0 && req.seqs.length === 0) {
      await feed.announced(replicaId, ownerToken);
      return {};
    }
    v.count('seqs', req.seqs, { min: 1, max: MAX_POKE_SEQS });
    const seqs = req.seqs.map((s) => v.int64String('seqs', s, { min: 1n }));
    const topics = topicsField('topics', req.topics, MAX_POKE_SEQS);
    await feed.poked(replicaId, ownerToken, [...topics], seqs);
    return {};
  },

  async WatchReplicas(req, { feed, signal }) {
    if (!WATCH_VERSION.test(req.known)) throw new v.InvalidArgumentError('known', 'is not a version this tier answered (digits, at most 20)');
    const timeoutMs = v.int64('timeout_ms', String(req.timeoutMs), 0, WATCH_MAX_MS);
    const health = await feed.watchReplicas(req.known, timeoutMs === 0 ? WATCH_DEFAULT_MS : timeoutMs, signal);
    return { version: health.version, unresponsive: health.unresponsive };
  },
};
