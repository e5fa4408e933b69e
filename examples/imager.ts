// A daemon of one's own, as docs/daemons.md ("Writing a daemon of your own") shows it:
// `imager` builds disk images. A queue handler builds what is enqueued for its node
// (`build-image`), and a singleton job — one imager in the whole cluster, elected by a
// lease — schedules the base image's rebuild every `rebuildEveryMs`: its write carries
// the lease's fence, so a holder deposed while paused writes nothing. Checked by
// test/integration/imager-example.test.ts, against a test tier. Run it with its own main:
//
//   SFDB_TARGETS=127.0.0.1:13005 npx tsx examples/imager.ts --node <uuid>
//
// (the node must exist; IMAGER_REBUILD_MS sets the rebuild interval, 1 h by default).
import { createHash, randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Fenced, LeaseKeeper, createClient } from '@sfdb/client';
import type { DatabaseClient } from '@sfdb/client';
import { QueuesDaemon } from '@sfdb/daemon';
import type { JobContext, PeriodicTask, QueuesDaemonOptions } from '@sfdb/daemon';
import { envValue, parseInteger } from '@sfdb/proto/runtime/env';

export const BUILD_QUEUE = 'build-image';
export const REBUILD_LEASE = 'imager/rebuild';
const LEASE_TTL_MS = 15_000;

export interface ImagerOptions extends QueuesDaemonOptions<DatabaseClient> {
  /** How often the elected imager schedules the base image's rebuild. */
  rebuildEveryMs: number;
}

/** Generic over its client: `this.db` is a whole DatabaseClient, for the queue's calls and its own. */
export class ImagerDaemon extends QueuesDaemon<DatabaseClient> {
  private readonly keeper: LeaseKeeper;
  private readonly rebuildEveryMs: number;
  private nextRebuild = 0;
  private readonly built: string[] = [];

  constructor(options: ImagerOptions) {
    super(options);
    this.rebuildEveryMs = options.rebuildEveryMs;
    this.keeper = new LeaseKeeper(this.db, {
      name: REBUILD_LEASE,
      holder: `${this.name}@${this.nodeUuid}/${process.pid}`,
      ttlMs: LEASE_TTL_MS,
      clock: this.clock,
      // Feed mode: a standby waits for the lease's topic instead of asking every ttl/3.
      ...(this.settings.feed ? { changes: this.db.changes } : {}),
      // Elected: run step() now, not at the end of the current idle.
      onAcquired: () => this.wake(),
      onLost: (reason) => this.log.warn({ reason }, 'no longer elected'),
      onError: (err) => this.countError(err),
    });
    this.handle(BUILD_QUEUE, (payload, ctx) => this.build(payload, ctx));
  }

  /** The queue's handler: its result is stored on the work item (Resolve). */
  private async build(payload: unknown, ctx: JobContext): Promise<{ image: string; digest: string }> {
    const image = (payload as { image?: unknown } | null)?.image;
    if (typeof image !== 'string') throw new Error('payload.image: a string');
    if (ctx.signal.aborted) throw new Error('stopped'); // the claim was lost, or the daemon stops
    this.built.push(image);
    return { image, digest: createHash('sha256').update(image).digest('hex') };
  }

  protected override async onStart(): Promise<void> {
    await super.onStart();
    this.keeper.start();
  }

  protected override async onStop(): Promise<void> {
    await super.onStop(); // running jobs end first
    await this.keeper.stop(); // then the lease is released: a standby takes over at once
  }

  protected override async step(): Promise<number> {
    const wait = await super.step(); // the queue: dequeue, hand claims to the workers
    if (!this.keeper.isHolder()) return wait; // a standby: the keeper contends on its own
    if (this.clock.now() >= this.nextRebuild) {
      await this.scheduleRebuild();
      this.nextRebuild = this.clock.now() + this.rebuildEveryMs;
    }
    return Math.max(0, Math.min(wait, this.nextRebuild - this.clock.now()));
  }

  /** The singleton job's write, fenced: the tier refuses it unless this process still holds the lease. */
  private async scheduleRebuild(): Promise<void> {
    const rebuild = { id: randomUUID(), nodeUuid: this.nodeUuid, queue: BUILD_QUEUE, payload: { image: 'base' } };
    try {
      await this.db.enqueue(rebuild, { fence: this.keeper.requireFence() });
    } catch (err) {
      if (!(err instanceof Fenced)) throw err; // counted by the framework; the step is retried
      this.log.warn('deposed: the rebuild was not scheduled');
    }
  }

  /** Every periodic call it makes besides the framework's, where the load tools see them. */
  protected override periodicTasks(): Omit<PeriodicTask, 'daemon'>[] {
    return [
      ...super.periodicTasks(),
      {
        task: 'rebuild-lease-standby',
        operation: 'AcquireLease',
        intervalMs: this.settings.feed ? 10 * LEASE_TTL_MS : Math.floor(LEASE_TTL_MS / 3),
        scale: 'process',
        duty: 'take over the rebuild schedule when its holder is gone',
      },
      { task: 'rebuild-lease-renewal', operation: 'RenewLease', intervalMs: Math.floor(LEASE_TTL_MS / 3), scale: 'elected', duty: 'keep the rebuild lease' },
      { task: 'rebuild-schedule', operation: 'Enqueue', intervalMs: this.rebuildEveryMs, scale: 'elected', duty: "schedule the base image's rebuild" },
    ];
  }

  /** The images this process built, in order. */
  builtImages(): readonly string[] {
    return this.built;
  }

  isElected(): boolean {
    return this.keeper.isHolder();
  }
}

/** Its own main: settings parsed once, one client whose caller identity is the daemon. */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { node: { type: 'string' } } });
  const nodeUuid = values.node;
  if (nodeUuid === undefined) {
    console.error('usage: imager --node <uuid>');
    process.exitCode = 2;
    return;
  }
  const rebuildEveryMs = parseInteger('IMAGER_REBUILD_MS', envValue(process.env, 'IMAGER_REBUILD_MS') ?? '3600000', { min: 1000 });
  // SFDB_TARGETS says where the tier is; the framework's settings are SFDB_* too (daemonSettings()).
  const db = createClient({ callerDaemon: 'imager', callerNode: nodeUuid });
  const daemon = new ImagerDaemon({ name: 'imager', nodeUuid, db, rebuildEveryMs });
  daemon.installSignalHandlers(); // SIGTERM, SIGINT: STOPPING, then STOPPED
  try {
    await daemon.start();
    console.log(`imager stopped: ${await daemon.done}`); // 'signal' | 'operator' | 'requested'
  } finally {
    db.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
