// The change feed's RPCs: WaitForChanges (a unary long-poll), GetChangesSince, and the
// replica-to-replica PokeChanges. All are served from the replica's window (no statement
// per waiter); a poke at most triggers one tail read.
import type { Change } from '../../../proto/gen/sfdb/v1/Change.js';
import { CHANGE_KIND_ENUM, MAX_TOPICS_PER_WAIT, MAX_TOPIC_CHARS, MAX_WAIT_MS, TOPIC_PATTERN } from '../../../proto/topics.js';
import type { WindowEntry } from '../../changefeed/window.js';
import * as v from '../../validate.js';
import type { Handlers } from '../context.js';

const MAX_POKE_SEQS = 10_000;

/** 1..max (64 for a wait) distinct well-formed topics. */
function topicsField(field: string, values: readonly string[], max = MAX_TOPICS_PER_WAIT): ReadonlySet<string> {
  v.count(field, values, { min: 1, max });
  for (const t of values) {
    if (t.length > MAX_TOPIC_CHARS) throw new v.InvalidArgumentError(field, `a topic is longer than ${MAX_TOPIC_CHARS} characters`);
    if (!TOPIC_PATTERN.test(t)) throw new v.InvalidArgumentError(field, `"${t.slice(0, 64)}" is not a topic (lower-case names and uuids joined by /)`);
  }
  return new Set(values);
}

function toChange(e: WindowEntry): Change {
  return { seq: String(e.seq), topic: e.topic, objectType: e.objectType, id: e.objectId, kind: CHANGE_KIND_ENUM[e.kind] };
}

export const changeHandlers: Handlers<'WaitForChanges' | 'GetChangesSince' | 'PokeChanges'> = {
  async WaitForChanges(req, { feed, signal }) {
    const topics = topicsField('topics', req.topics);
    const timeoutMs = v.int64('timeout_ms', String(req.timeoutMs), 0, MAX_WAIT_MS);
    const r = await feed.wait(topics, req.cursor, timeoutMs === 0 ? MAX_WAIT_MS : timeoutMs, signal);
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
    v.count('seqs', req.seqs, { min: 1, max: MAX_POKE_SEQS });
    const seqs = req.seqs.map((s) => v.int64String('seqs', s, { min: 1n }));
    const topics = topicsField('topics', req.topics, MAX_POKE_SEQS);
    await feed.poked(replicaId, ownerToken, [...topics], seqs);
    return {};
  },
};
