// The operator-stop chaos run (issue 36): two real replicas on one private MariaDB, each
// behind a TCP proxy (its registered address: a blackholed proxy is a replica cut off by
// the network), and K separate daemon processes (host.ts), each running a QueuesDaemon
// with its own client. A round faults one replica F — SIGSTOP, blackhole, SIGKILL or a
// restart — young (restarted with a fresh id one second before) or old (up for at least a
// minute), with the daemons' long-polls and watches wherever their balancers put them
// (recorded per daemon: on F or not), and writes an operator stop (`sf-ctl stop-daemon`:
// STOPPING with the hold set) for every daemon through the live replica L, at the fault
// or after it. Per daemon: how long from the write's answer to the daemon's notice, and
// whether STOPPED was recorded. A stop not heard within `lostMs` is lost.
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { createClient } from '../../client/index.js';
import type { DatabaseClient } from '../../client/index.js';
import type { Children } from '../../harness/children.js';
import type { ProcessCluster } from '../../harness/cluster.js';
import { freeze } from '../../harness/freeze.js';

export type Fault = 'freeze' | 'blackhole' | 'kill' | 'restart';

export interface Arrangement {
  fault: Fault;
  /** F restarted with a fresh id this long before the fault (young), or up for at least `oldMs` (old). */
  age: 'young' | 'old';
  /** The stops written at the fault, or `afterMs` after it. */
  when: 'at' | 'after';
  /** 'both': the daemons placed while L was cut off, so their polls and watches start on F. */
  placed: 'anywhere' | 'both-on-f';
}

export interface StopRecord {
  round: number;
  arrangement: string;
  fault: Fault;
  age: Arrangement['age'];
  when: Arrangement['when'];
  placed: Arrangement['placed'];
  /** F's age at the fault (ms since it was ready). */
  faultAgeMs: number;
  pollOnF: boolean;
  watchOnF: boolean;
  /** From the stop's write answered to the daemon's notice; undefined: lost. */
  heardMs: number | undefined;
  stoppedRecorded: boolean;
  /** The daemon's own-state calls sent again (database_daemon_state_retries_total): hedged, and retried after a failure. */
  hedges: number;
  retries: number;
}

export interface RoundOptions {
  cluster: ProcessCluster;
  children: Children;
  hosts: number;
  /** The fault's wait before the stop in 'after' rounds. */
  afterMs: number;
  /** A young replica's age at the fault. */
  youngMs: number;
  /** An old replica's least age at the fault. */
  oldMs: number;
  /** A stop not heard this long after its write is lost. */
  lostMs: number;
  say: (message: string) => void;
}

/** The arrangements a run cycles through. */
export function arrangements(): Arrangement[] {
  const out: Arrangement[] = [];
  for (const fault of ['freeze', 'blackhole'] as const) {
    for (const age of ['old', 'young'] as const) for (const when of ['at', 'after'] as const) out.push({ fault, age, when, placed: 'anywhere' });
    out.push({ fault, age: 'old', when: 'at', placed: 'both-on-f' });
  }
  out.push({ fault: 'kill', age: 'old', when: 'at', placed: 'anywhere' });
  out.push({ fault: 'restart', age: 'old', when: 'at', placed: 'anywhere' });
  return out;
}

export function label(a: Arrangement): string {
  return `${a.fault} ${a.age} ${a.when}${a.placed === 'both-on-f' ? ' both-on-F' : ''}`;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A daemon host and its messages. */
class Host {
  private readonly waiting = new Map<string, ((m: Record<string, unknown>) => void)[]>();
  readonly heard = new Map<string, number>();
  readonly done = new Map<string, { reason: string; hedges: number; retries: number }>();

  constructor(readonly child: ChildProcess) {
    child.on('message', (m: Record<string, unknown>) => {
      if (m['type'] === 'heard') this.heard.set(String(m['node']), Number(m['at']));
      if (m['type'] === 'done') this.done.set(String(m['node']), { reason: String(m['reason']), hedges: Number(m['hedges']), retries: Number(m['retries']) });
      const list = this.waiting.get(String(m['type']));
      list?.shift()?.(m);
    });
  }

  next(type: string, timeoutMs: number): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`daemon host: no '${type}' within ${timeoutMs} ms`)), timeoutMs);
      const list = this.waiting.get(type) ?? [];
      list.push((m) => {
        clearTimeout(timer);
        resolve(m);
      });
      this.waiting.set(type, list);
    });
  }

  async ask(message: Record<string, unknown>, reply: string, timeoutMs = 30_000): Promise<Record<string, unknown>> {
    const answer = this.next(reply, timeoutMs);
    const error = this.next('error', timeoutMs + 1000).then((m) => Promise.reject(new Error(String(m['message']))));
    this.child.send(message);
    return Promise.race([answer, error]);
  }
}

/** Waits until `check` holds, at most `ms`; fails with what it last saw. */
async function until<T>(what: string, ms: number, check: () => Promise<{ ok: boolean; seen: T }>): Promise<T> {
  let seen: T | undefined;
  for (const end = Date.now() + ms; Date.now() < end; await sleep(100)) {
    const r = await check();
    if (r.ok) return r.seen;
    seen = r.seen;
  }
  throw new Error(`${what}: not within ${ms} ms; last seen ${JSON.stringify(seen)}`);
}

export class StopRounds {
  private readonly hosts: Host[] = [];
  private readonly readyAt = new Map<string, number>();
  private operator: DatabaseClient | undefined;
  private round = 0;
  readonly records: StopRecord[] = [];

  constructor(private readonly o: RoundOptions) {}

  /** Forks the daemon hosts (the cluster is started already). */
  async start(): Promise<void> {
    for (const r of this.o.cluster.replicas) this.readyAt.set(r.name, Date.now());
    for (let i = 0; i < this.o.hosts; i++) {
      const host = new Host(this.o.children.forkTs('bench/stops/host.ts', []));
      const ready = host.next('ready', 60_000);
      this.hosts.push(host);
      await ready;
    }
  }

  async stop(): Promise<void> {
    this.operator?.close();
    for (const host of this.hosts) host.child.send({ type: 'close' });
  }

  /** One round of `a` with F the replica named `f`; its records are kept. */
  async run(a: Arrangement, f: string): Promise<StopRecord[]> {
    const { cluster, say } = this.o;
    this.round += 1;
    const l = cluster.replicas.find((r) => r.name !== f);
    if (!l) throw new Error('stop rounds: two replicas needed');
    const replicaF = (): ReturnType<ProcessCluster['replica']> => cluster.replica(f);
    if (a.age === 'old') {
      const age = Date.now() - (this.readyAt.get(f) ?? 0);
      if (age < this.o.oldMs) {
        say(`round ${this.round}: waiting ${Math.ceil((this.o.oldMs - age) / 1000)} s for ${f} to be old`);
        await sleep(this.o.oldMs - age);
      }
    }
    const nodes = await this.createNodes(l.address);
    const targets = cluster.replicas.map((r) => r.address);
    if (a.placed === 'both-on-f') l.proxy?.blackhole(true);
    await Promise.all(this.hosts.map((h, i) => h.ask({ type: 'start', node: nodes[i], targets }, 'started', 60_000)));
    const placements = await this.settledPlacement(a.placed === 'both-on-f' ? replicaF().address : undefined);
    if (a.placed === 'both-on-f') {
      l.proxy?.blackhole(false);
      // The balancer parts a poll from its watch once L is READY again (its reconnect backoff is at most 2 s).
      await sleep(3000);
    }
    if (a.age === 'young') {
      await cluster.restart(f, { id: 'fresh' });
      this.readyAt.set(f, Date.now());
      await sleep(this.o.youngMs);
    }
    const fAddress = replicaF().address;
    const at = await this.placementNow();
    const faultAgeMs = Date.now() - (this.readyAt.get(f) ?? 0);
    // The fault.
    let restarting: Promise<unknown> | undefined;
    if (a.fault === 'freeze') await freeze(replicaF().proc.pid); // until every thread is seen stopped
    else if (a.fault === 'blackhole') replicaF().proxy?.blackhole(true);
    else if (a.fault === 'kill') await cluster.terminate(f, 'SIGKILL', 10_000);
    else restarting = cluster.restart(f, { id: 'same' });
    if (a.when === 'after') await sleep(this.o.afterMs);
    // The stops, through L only.
    const written = await Promise.all(
      nodes.map(async (node) => {
        await (this.operator as DatabaseClient).setNodeDaemonState(node, 'queues', 'STOPPING', 'operator stop (bench:stops)', { operatorHold: 'set' });
        return Date.now();
      }),
    );
    const end = Date.now() + this.o.lostMs;
    while (Date.now() < end && !this.hosts.every((h, i) => h.heard.has(nodes[i] as string))) await sleep(20);
    // Healed.
    if (a.fault === 'freeze') cluster.signal(f, 'SIGCONT');
    else if (a.fault === 'blackhole') replicaF().proxy?.blackhole(false);
    else if (a.fault === 'kill') restarting = cluster.restart(f, { id: 'fresh' });
    if (restarting) {
      await restarting;
      this.readyAt.set(f, Date.now());
    }
    await until('every daemon done', 30_000, async () => ({ ok: this.hosts.every((h, i) => h.done.has(nodes[i] as string)), seen: this.hosts.map((h, i) => h.done.get(nodes[i] as string)?.reason ?? 'running') })).catch(
      (err: Error) => say(err.message),
    );
    const records: StopRecord[] = [];
    for (const [i, host] of this.hosts.entries()) {
      const node = nodes[i] as string;
      const row = await (this.operator as DatabaseClient).getNodeDaemonState(node, 'queues').catch(() => undefined);
      const heard = host.heard.get(node);
      const p = at[i] ?? placements[i] ?? { poll: '', watch: '' };
      records.push({
        round: this.round,
        arrangement: label(a),
        fault: a.fault,
        age: a.age,
        when: a.when,
        placed: a.placed,
        faultAgeMs,
        pollOnF: p.poll.split(',').includes(fAddress),
        watchOnF: p.watch.split(',').includes(fAddress),
        heardMs: heard === undefined ? undefined : heard - (written[i] as number),
        stoppedRecorded: row?.state === 'STOPPED',
        hedges: host.done.get(node)?.hedges ?? 0,
        retries: host.done.get(node)?.retries ?? 0,
      });
    }
    this.records.push(...records);
    say(`round ${this.round} (${label(a)}, F ${f} at ${(faultAgeMs / 1000).toFixed(1)} s): ${records.map((r) => (r.heardMs === undefined ? 'LOST' : `${r.heardMs} ms`)).join(', ')}`);
    return records;
  }

  /** A node per host, created through `address` (the operator's client dials that replica only). */
  private async createNodes(address: string): Promise<string[]> {
    this.operator?.close();
    this.operator = createClient({ targets: [address], callerDaemon: 'sf-ctl', cache: false, feed: false });
    const nodes = this.hosts.map(() => randomUUID());
    for (const node of nodes) await this.operator.createNode({ uuid: node, fqdn: `stops-${node.slice(0, 8)}.test` });
    return nodes;
  }

  private async placementNow(): Promise<{ poll: string; watch: string }[]> {
    return Promise.all(this.hosts.map(async (h) => (await h.ask({ type: 'placement' }, 'placement')) as unknown as { poll: string; watch: string }));
  }

  /** Every daemon with its long-poll and its watch placed (on `only`, when given). */
  private settledPlacement(only?: string): Promise<{ poll: string; watch: string }[]> {
    return until('every daemon placed its long-poll and its watch', 30_000, async () => {
      const seen = await this.placementNow();
      const ok = seen.every((p) => p.poll !== '' && p.watch !== '' && (only === undefined || (p.poll === only && p.watch === only)));
      return { ok, seen };
    });
  }
}

/** The figures of a set of records: count, lost, and the notice times' percentiles (ms). */
export function summarize(records: readonly StopRecord[]): { stops: number; lost: number; notStopped: number; p50: number; p99: number; max: number } {
  const heard = records.flatMap((r) => (r.heardMs === undefined ? [] : [r.heardMs])).sort((x, y) => x - y);
  const q = (p: number): number => (heard.length === 0 ? Number.NaN : (heard[Math.min(heard.length - 1, Math.ceil(p * heard.length) - 1)] as number));
  return {
    stops: records.length,
    lost: records.filter((r) => r.heardMs === undefined).length,
    notStopped: records.filter((r) => !r.stoppedRecorded).length,
    p50: q(0.5),
    p99: q(0.99),
    max: heard.at(-1) ?? Number.NaN,
  };
}
