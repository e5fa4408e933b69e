// The cluster daemon: one per node, one elected by lease. The elected one runs the
// maintenance jobs on their intervals under its fence, taken per job with
// LeaseKeeper.requireFence() (a job never starts on a lease its keeper gave up): the
// recovery sweep (requeue expired claims), the stale registry sweep, event and
// change-feed pruning. Standbys contend for the lease on an interval (LeaseKeeper), never
// in a tight loop. Elected or not, it idles through idle() and notices an operator stop
// like every other daemon.
import type { Context } from '@opentelemetry/api';
import { LeaseKeeper } from '@sfdb/client';
import { topics } from '@sfdb/proto/topics';
import type { DatabaseClient, LeaseCalls, LeaseFence } from '@sfdb/client';
import { Daemon } from './daemon.js';
import type { DaemonDb, DaemonOptions } from './types.js';
import type { PeriodicTask } from './periodic.js';

export type ClusterDb = DaemonDb & LeaseCalls & Pick<DatabaseClient, 'requeueExpiredClaims' | 'sweepReplicaRegistry' | 'pruneEvents' | 'pruneChanges'>;

export const MAINTENANCE_LEASE = 'cluster/maintenance';

interface Job {
  name: string;
  everyMs: number;
  /** `trace`: the iteration's span, the parent of the job's calls. */
  run: (fence: LeaseFence, trace: Context) => Promise<unknown>;
}

/** Generic over its client like every daemon class: a subclass's own calls are made on `this.db`. */
export class ClusterDaemon<Db extends ClusterDb = ClusterDb> extends Daemon<Db> {
  private readonly keeper: LeaseKeeper;
  private readonly jobs: Job[];
  private readonly due = new Map<string, number>();
  private wasHolder = false;
  private runs: Record<string, number> = {};

  constructor(options: DaemonOptions<Db>) {
    super(options);
    this.keeper = new LeaseKeeper(this.db, {
      name: MAINTENANCE_LEASE,
      holder: `${this.name}@${this.nodeUuid}/${process.pid}`,
      ttlMs: this.settings.maintenanceLeaseMs,
      clock: this.clock,
      // Feed mode: standbys wait for the lease's topic (a release, a takeover, an end the tier announces), not on the interval.
      ...(this.settings.feed && this.db.changes ? { changes: this.db.changes } : {}),
      onAcquired: (token) => this.log.info({ token }, 'elected: running maintenance'),
      onLost: (reason) => this.log.warn({ reason }, 'no longer elected'),
    });
    const s = this.settings;
    this.jobs = [
      { name: 'recovery-sweep', everyMs: s.recoverySweepMs, run: (fence, trace) => this.db.requeueExpiredClaims(fence, 0, { trace }) },
      { name: 'registry-sweep', everyMs: s.registrySweepMs, run: (fence, trace) => this.db.sweepReplicaRegistry(fence, 0, { trace }) },
      { name: 'event-prune', everyMs: s.eventPruneMs, run: (_fence, trace) => this.db.pruneEvents(s.eventRetentionMs, { trace }) },
      { name: 'change-prune', everyMs: s.changePruneMs, run: (fence, trace) => this.pruneChanges(fence, trace) },
    ];
  }

  protected override periodicTasks(): Omit<PeriodicTask, 'daemon'>[] {
    const s = this.settings;
    const third = Math.floor(s.maintenanceLeaseMs / 3);
    return [
      {
        task: 'lease-standby',
        operation: 'AcquireLease',
        // Feed mode: when the lease's topic says it was released, taken or ended (the tier
        // announces an end), else at the keeper's backstop of 10 lease periods.
        intervalMs: s.feed ? 10 * s.maintenanceLeaseMs : third,
        scale: 'process',
        duty: 'take over maintenance when its holder is gone',
      },
      { task: 'lease-renewal', operation: 'RenewLease', intervalMs: third, scale: 'elected', duty: 'keep the maintenance lease' },
      { task: 'recovery-sweep', operation: 'RequeueExpiredClaims', intervalMs: s.recoverySweepMs, scale: 'elected', duty: 'requeue expired claims' },
      { task: 'registry-sweep', operation: 'SweepReplicaRegistry', intervalMs: s.registrySweepMs, scale: 'elected', duty: 'remove stale replica rows' },
      { task: 'event-prune', operation: 'PruneEvents', intervalMs: s.eventPruneMs, scale: 'elected', duty: 'keep events within retention' },
      { task: 'change-prune', operation: 'PruneChanges', intervalMs: s.changePruneMs, scale: 'elected', duty: 'keep change-feed rows and retired counters within the tier\'s retentions' },
    ];
  }

  /** Prunes change rows past the retention, a bounded batch per call, until none are left (or we stop). */
  private async pruneChanges(fence: LeaseFence, trace: Context): Promise<void> {
    for (let i = 0; i < 10 && !this.stopping; i++) {
      const r = await this.db.pruneChanges(fence, 0, { trace });
      if (!r.more) return;
    }
  }

  /**
   * The lease's topic, which the keeper waits on: in the daemon's own subscription, made
   * before its long-poll's handshake, the keeper's (at onStart) joins no new topic, and the
   * poll in flight is not cancelled and sent again (1,000 of each in a 1,000-node start).
   */
  protected override feedTopics(): string[] {
    return [topics.lease(MAINTENANCE_LEASE)];
  }

  protected override async onStart(): Promise<void> {
    this.keeper.start();
  }

  protected async step(): Promise<number> {
    // The lease's changes are the keeper's to act on (feedTopics above): nothing to do here.
    this.takeChanges(new Set(ClusterDaemon.prototype.feedTopics.call(this)));
    if (!this.keeper.isHolder()) {
      this.wasHolder = false;
      // Not elected: nothing to do here (the keeper contends on its own interval).
      return this.settings.daemonStatePollMs;
    }
    const now = this.clock.now();
    if (!this.wasHolder) {
      // Newly elected: run every job now, then on its interval.
      this.wasHolder = true;
      for (const job of this.jobs) this.due.set(job.name, now);
    }
    for (const job of this.jobs) {
      if ((this.due.get(job.name) ?? now) > now) continue;
      // Lost meanwhile (our own deadline passed during a job): the rest waits for the next election.
      if (!this.keeper.isHolder()) break;
      this.due.set(job.name, now + job.everyMs);
      try {
        // The fence as of this job's start: a job never runs on a fence its keeper gave up.
        // A job to run: the iteration is traced (this.trace), the job's calls under it.
        await job.run(this.keeper.requireFence(), this.trace);
        this.runs[job.name] = (this.runs[job.name] ?? 0) + 1;
      } catch (err) {
        this.countError(err);
      }
      if (this.stopping) return 0;
    }
    const next = Math.min(...this.jobs.map((j) => this.due.get(j.name) ?? now));
    // Wake no later than our own lease deadline, to notice losing it.
    return Math.max(0, Math.min(next - this.clock.now(), this.keeper.remainingMs()));
  }

  protected override async onStop(): Promise<void> {
    await this.keeper.stop();
  }

  isElected(): boolean {
    return this.keeper.isHolder();
  }

  override snapshot(): ReturnType<Daemon['snapshot']> & { elected: boolean; runs: Record<string, number> } {
    return { ...super.snapshot(), elected: this.keeper.isHolder(), runs: { ...this.runs } };
  }
}
