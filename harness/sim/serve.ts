// What a simulated replica answers to each RPC the simulated processes make
// (harness/sim/): the unary ones from the SimDatabase at once; WaitForChanges and
// WatchReplicas held as the real tier holds them (server/changefeed/feed.ts: a cursor
// '' answers at once with "now"; one outside the replica's window answers resync; changes
// past the cursor answer at once when one of them wakes the poll — every change but a
// report on a topic it keeps quiet, and the answer carries them all; else held until one
// does or the timeout passes. Interest summaries are not modelled: every change wakes, a
// superset of what the real tier wakes for).
import type { SimReplica } from './replicas.js';
import type { Caller, SimDatabase } from './tier.js';
import { SimRefusal } from './tier.js';
import type { SimScheduler } from './scheduler.js';

/** An answer, or held: `answer` is then called later (or never, when the call ends first). */
export type Served = { answer: unknown } | { held: () => void };

type Req = Record<string, unknown>;

const s = (v: unknown): string => (typeof v === 'string' ? v : String(v ?? ''));

/**
 * Serves `method` on `replica`. `answer` is for held calls; the returned `held.cancel`
 * drops the hold (the call ended). Throws SimRefusal for a refusal.
 */
export function serve(
  db: SimDatabase,
  sched: SimScheduler,
  replica: SimReplica,
  method: string,
  req: Req,
  caller: Caller,
  answer: (response: unknown) => void,
): Served {
  switch (method) {
    case 'GetNode':
      return { answer: db.getNode(s(req['uuid'])) };
    case 'GetNodeDaemonState':
      return { answer: db.getDaemonState({ nodeUuid: s(req['nodeUuid']), daemon: s(req['daemon']) }) };
    case 'SetNodeDaemonState':
      return {
        answer: db.setDaemonState(
          { nodeUuid: s(req['nodeUuid']), daemon: s(req['daemon']), state: s(req['state']), message: s(req['message']), operatorHold: req['operatorHold'] === undefined ? undefined : s(req['operatorHold']) },
          caller,
        ),
      };
    case 'NodeHeartbeat':
      return { answer: { databaseTime: new Date(0).toISOString() } };
    case 'Dequeue':
      return { answer: db.dequeue(req as Parameters<SimDatabase['dequeue']>[0]) };
    case 'RenewClaim':
      return { answer: db.renewClaim({ id: s(req['id']), epoch: s(req['epoch']), leaseMs: req['leaseMs'] as number }) };
    case 'Resolve':
      return { answer: db.resolve({ id: s(req['id']), epoch: s(req['epoch']), outcome: s(req['outcome']) }) };
    case 'Release':
      return { answer: db.release({ id: s(req['id']), epoch: s(req['epoch']), delayMs: req['delayMs'] as number }) };
    case 'RequeueExpiredClaims':
      return { answer: db.requeueExpired() };
    case 'SweepReplicaRegistry':
      return { answer: { removed: '0', replicaIds: [] } };
    case 'PruneEvents':
      return { answer: { deleted: '0' } };
    case 'PruneChanges':
      return { answer: { deleted: '0', more: false, retiredFolded: '0' } };
    case 'AcquireLease':
      return { answer: db.acquireLease({ name: s(req['name']), holder: s(req['holder']), ttlMs: req['ttlMs'] as number }) };
    case 'RenewLease':
      return { answer: db.renewLease({ name: s(req['name']), holder: s(req['holder']), token: s(req['token']), ttlMs: req['ttlMs'] as number }) };
    case 'ReleaseLease':
      return { answer: db.releaseLease({ name: s(req['name']), holder: s(req['holder']), token: s(req['token']) }) };
    case 'GetBlob':
      return { answer: db.getBlob(s(req['uuid'])) };
    case 'WaitForChanges':
      return waitForChanges(db, sched, replica, req, answer);
    case 'WatchReplicas':
      return watchReplicas(sched, replica, req, answer);
    default:
      throw new SimRefusal('UNIMPLEMENTED', `${method} is not simulated`);
  }
}

function waitForChanges(db: SimDatabase, sched: SimScheduler, replica: SimReplica, req: Req, answer: (response: unknown) => void): Served {
  const text = s(req['cursor']);
  if (text === '') return { answer: { changes: [], cursor: String(db.seq), resync: false } };
  const cursor = Number(text.split(':')[0]);
  if (!Number.isSafeInteger(cursor)) throw new SimRefusal('INVALID_ARGUMENT', 'cursor: not a cursor this tier answered');
  if (cursor < replica.base || cursor > db.seq) return { answer: { changes: [], cursor: String(db.seq), resync: true } };
  const topics = new Set((req['topics'] as string[] | undefined) ?? []);
  const quiet = new Set((req['quietReports'] as string[] | undefined) ?? []);
  const now = db.changesPast(cursor, topics, quiet);
  if (now.wakes) return { answer: { changes: now.changes, cursor: String(db.seq), resync: false } };
  const timeoutMs = Number(req['timeoutMs'] ?? 0) || 30_000;
  const poll = {
    topics,
    quiet,
    cursor,
    answer: (r: unknown) => {
      timer.cancel();
      answer(r);
    },
  };
  const timer = sched.after(timeoutMs, () => {
    if (!replica.polls.delete(poll)) return;
    whenAwake(replica, () => {
      const r = db.changesPast(cursor, topics, quiet);
      answer({ changes: r.changes, cursor: String(db.seq), resync: false });
    });
  });
  replica.polls.add(poll);
  return {
    held: () => {
      timer.cancel();
      replica.polls.delete(poll);
    },
  };
}

function watchReplicas(sched: SimScheduler, replica: SimReplica, req: Req, answer: (response: unknown) => void): Served {
  const known = s(req['known']);
  if (known !== replica.version) return { answer: replica.health };
  const timeoutMs = Number(req['timeoutMs'] ?? 0) || 300_000;
  const watch = {
    known,
    answer: (r: unknown) => {
      timer.cancel();
      answer(r);
    },
  };
  const timer = sched.after(timeoutMs, () => {
    if (replica.watches.delete(watch)) whenAwake(replica, () => answer(replica.health));
  });
  replica.watches.add(watch);
  return {
    held: () => {
      timer.cancel();
      replica.watches.delete(watch);
    },
  };
}

/** A frozen replica's timer fires when it thaws; otherwise now (a blackholed one's answer is lost on the way). */
function whenAwake(replica: SimReplica, fn: () => void): void {
  if (replica.status === 'frozen') replica.silentWork.push(fn);
  else if (replica.status !== 'killed') fn();
}
