// A daemon's own reports against a real tier (issue 17): SetNodeDaemonState by the daemon
// itself (its caller node and daemon are the state's) publishes kind 'reported', anyone
// else's kind 'state'. A long-poll that keeps reports quiet on a topic is not woken by a
// report there, but by anything else, and its answer carries the report too; a report
// never hides an earlier change of another kind. A daemon's start no longer wakes its own
// long-poll (it did once per start: 7,000 answers and polls in a cold start of 1,000
// nodes).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { DatabaseClient } from '../../client/index.js';
import { ClusterDaemon, Daemon, daemonSettings } from '../../daemons/index.js';
import { topics } from '../../proto/topics.js';
import { holdingLongPolls, longPollsAnsweredWithChanges } from '../helpers/metrics.js';
import { startTestTier } from '../helpers/tier.js';
import type { TestTier } from '../helpers/tier.js';

let t: TestTier;
let operator: DatabaseClient;
const clients: DatabaseClient[] = [];

beforeAll(async () => {
  t = await startTestTier();
  operator = t.client({ feed: false, cache: false });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t?.stop();
});

async function newNode(): Promise<string> {
  const uuid = randomUUID();
  await operator.createNode({ uuid, fqdn: `reports-${uuid.slice(0, 8)}.example.com` });
  return uuid;
}

/** A client with a daemon's identity on `node`. */
function daemonClient(daemon: string, node: string): DatabaseClient {
  const db = t.client({ callerDaemon: daemon, callerNode: node, feed: false, cache: false });
  clients.push(db);
  return db;
}

describe('reports', () => {
  it("a daemon's own write of its state is a report; an operator's, another daemon's or a hold change is a state change", async () => {
    const node = await newNode();
    const self = daemonClient('queues', node);
    const own = topics.daemonState(node, 'queues');
    const other = topics.daemonState(node, 'net');
    const { cursor } = await operator.waitForChanges({ topics: [own, other], cursor: '' });
    const kindsAfter = async (from: string): Promise<string[]> =>
      (await operator.getChangesSince({ cursor: from, topics: [own, other] })).changes.map((c) => `${c.topic === own ? 'own' : 'other'}:${c.kind}`);
    await self.setNodeDaemonState(node, 'queues', 'RUNNING', '');
    expect(await kindsAfter(cursor)).toEqual(['own:reported']);
    const c1 = (await operator.getChangesSince({ cursor, topics: [own, other] })).cursor;
    await self.setNodeDaemonState(node, 'net', 'RUNNING', ''); // not its own state
    await operator.setNodeDaemonState(node, 'queues', 'STOPPING', 'operator (test)');
    expect(await kindsAfter(c1)).toEqual(['other:state', 'own:state']);
    const c2 = (await operator.getChangesSince({ cursor: c1, topics: [own, other] })).cursor;
    // A hold change is an operator's act even when the daemon's identity sends it.
    await self.setNodeDaemonState(node, 'queues', 'STOPPED', 'held', { operatorHold: 'set' });
    expect(await kindsAfter(c2)).toEqual(['own:state']);
  });

  it('in one group-commit batch, a daemon all of whose writes were its own gets a report, any other a state change', async () => {
    const node = await newNode();
    const [q, n, sc] = ['queues', 'net', 'sidechannel'].map((d) => topics.daemonState(node, d)) as [string, string, string];
    const { cursor } = await operator.waitForChanges({ topics: [q, n, sc], cursor: '' });
    // The batch itself (the handler sets `reported` from the caller: the test above).
    const row = (daemon: string, state: string, reported: boolean) => ({ nodeUuid: node, daemon, state, message: '', reported });
    await t.tier.groups.kinds.daemonState.batch([row('queues', 'RUNNING', true), row('net', 'STOPPING', false), row('sidechannel', 'RUNNING', true), row('sidechannel', 'STOPPING', false)]);
    const kinds = (await operator.getChangesSince({ cursor, topics: [q, n, sc] })).changes.map((c) => `${c.id}:${c.kind}`);
    expect(kinds.sort()).toEqual(['net:state', 'queues:reported', 'sidechannel:state']);
  });

  it('a report on a topic the poll keeps quiet does not wake it; the next change does, and the answer carries it', async () => {
    const node = await newNode();
    const self = daemonClient('queues', node);
    const own = topics.daemonState(node, 'queues');
    const { cursor } = await self.waitForChanges({ topics: [own], cursor: '', quietReports: [own] });
    await holdingLongPolls(t, 0);
    const poll = self.waitForChanges({ topics: [own], cursor, quietReports: [own], timeoutMs: 30_000 });
    await holdingLongPolls(t, 1);
    const before = await longPollsAnsweredWithChanges(t);
    const running = await self.setNodeDaemonState(node, 'queues', 'RUNNING', '');
    // The wake-up is decided in the commit's own turn: answered by now if it were woken.
    expect((await longPollsAnsweredWithChanges(t)) - before).toBe(0);
    await holdingLongPolls(t, 1);
    await operator.setNodeDaemonState(node, 'queues', 'STOPPING', 'operator (test)');
    const answer = await poll;
    expect((await longPollsAnsweredWithChanges(t)) - before).toBe(1);
    // Coalesced per (topic, id): the operator's change, which is the later one.
    expect(answer.changes.map((c) => c.kind)).toEqual(['state']);
    expect(BigInt(answer.changes[0]?.seq ?? '0')).toBeGreaterThan(BigInt(running.changeSeq));
  });

  it('a poll that finds only a report past its cursor waits; one that finds a report over an operator change answers at once', async () => {
    const node = await newNode();
    const self = daemonClient('queues', node);
    const own = topics.daemonState(node, 'queues');
    const { cursor } = await self.waitForChanges({ topics: [own], cursor: '' });
    await self.setNodeDaemonState(node, 'queues', 'RUNNING', '');
    const before = await longPollsAnsweredWithChanges(t);
    const aborter = new AbortController();
    const held = self.waitForChanges({ topics: [own], cursor, quietReports: [own], timeoutMs: 30_000 }, { signal: aborter.signal }).catch(() => undefined);
    await holdingLongPolls(t, 1);
    expect((await longPollsAnsweredWithChanges(t)) - before).toBe(0);
    aborter.abort();
    await held;
    await holdingLongPolls(t, 0);
    // An operator's stop, then the daemon's own write over it, both past the cursor: the
    // answer's one change for the daemon is the report, and it still answers at once.
    await operator.setNodeDaemonState(node, 'queues', 'STOPPING', 'operator (test)');
    await self.setNodeDaemonState(node, 'queues', 'RUNNING', '');
    const answer = await self.waitForChanges({ topics: [own], cursor, quietReports: [own], timeoutMs: 30_000 });
    expect(answer.changes.map((c) => c.kind)).toEqual(['reported']);
    expect((await longPollsAnsweredWithChanges(t)) - before).toBe(1);
  });

  it('the control: a poll that does not keep reports quiet is woken by one', async () => {
    const node = await newNode();
    const self = daemonClient('queues', node);
    const own = topics.daemonState(node, 'queues');
    const { cursor } = await self.waitForChanges({ topics: [own], cursor: '' });
    await holdingLongPolls(t, 0);
    const poll = self.waitForChanges({ topics: [own], cursor, timeoutMs: 30_000 });
    await holdingLongPolls(t, 1);
    const before = await longPollsAnsweredWithChanges(t);
    await self.setNodeDaemonState(node, 'queues', 'RUNNING', '');
    expect((await poll).changes.map((c) => c.kind)).toEqual(['reported']);
    expect((await longPollsAnsweredWithChanges(t)) - before).toBe(1);
  });

  it('quiet_reports must be among the topics: INVALID_ARGUMENT naming it, nothing held', async () => {
    const node = await newNode();
    const own = topics.daemonState(node, 'queues');
    const err = await operator.waitForChanges({ topics: [own], cursor: '', quietReports: [topics.daemonState(node, 'net')] }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.name).toBe('InvalidArgument');
    expect(err?.message).toContain('quiet_reports');
    const bad = await operator.waitForChanges({ topics: [own], cursor: '', quietReports: ['Not A Topic'] }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(bad?.message).toContain('quiet_reports');
    await holdingLongPolls(t, 0);
  });
});

class IdleDaemon extends Daemon {
  protected async step(): Promise<number> {
    return 60_000;
  }
}

describe('a daemon in feed mode', () => {
  it('records RUNNING without waking its own long-poll, and still hears an operator stop', async () => {
    const node = await newNode();
    const db = t.client({ callerDaemon: 'queues', callerNode: node, cache: false });
    clients.push(db);
    const settings = daemonSettings({}, { feed: true, idleTickMs: 50 });
    const daemon = new IdleDaemon({ name: 'queues', nodeUuid: node, db, settings, log: pino({ level: 'silent' }) });
    const before = await longPollsAnsweredWithChanges(t);
    await daemon.start();
    try {
      // Its RUNNING committed (and would have woken its poll in the same turn) before the
      // start returned: nothing answered with changes, and it holds its one long-poll.
      expect((await longPollsAnsweredWithChanges(t)) - before).toBe(0);
      expect((await db.getNodeDaemonState(node, 'queues'))?.state).toBe('RUNNING');
      await holdingLongPolls(t, 1);
      await operator.setNodeDaemonState(node, 'queues', 'STOPPING', 'operator (test)');
      expect(await daemon.done).toBe('operator');
      expect((await longPollsAnsweredWithChanges(t)) - before).toBe(1);
    } finally {
      await daemon.stop();
    }
  });

  it("a cluster daemon's start cancels no poll: the lease's topic is in its subscription from the start", async () => {
    const node = await newNode();
    const db = t.client({ callerDaemon: 'cluster', callerNode: node, cache: false });
    clients.push(db);
    const daemon = new ClusterDaemon({ name: 'cluster', nodeUuid: node, db, settings: daemonSettings({}, { feed: true }), log: pino({ level: 'silent' }) });
    await daemon.start();
    try {
      // The keeper subscribed to the lease's topic in onStart, within start(): had that been
      // a new topic, the poll in flight would have been cancelled and sent again by now.
      expect(db.changes?.snapshot().reissues).toBe(0);
      expect(db.changes?.snapshot().topics).toBe(2);
    } finally {
      await daemon.stop();
    }
  });
});
