// A daemon of one's own, written from docs/daemons.md ("Writing a daemon of your own") and
// the installed declarations: `imager` subclasses QueuesDaemon with the whole client as its
// type, builds what is enqueued on its queue (the handler's answer is the item's result),
// and runs one singleton job under a LeaseKeeper whose writes carry the lease's fence.
import type { DatabaseClient, LeaseFence } from '@sfdb/client';
import { Fenced, LeaseKeeper } from '@sfdb/client';
import { QueuesDaemon } from '@sfdb/daemon';
import type { JobContext, QueuesDaemonOptions } from '@sfdb/daemon';

export const BUILD_QUEUE = 'build-image';
export const SCHEDULE_LEASE = 'imager/schedule';
export const SCHEDULE_KEY = 'imager.schedule';

export interface Built {
  image: string;
  bytes: number;
}

export class ImagerDaemon extends QueuesDaemon<DatabaseClient> {
  private readonly keeper: LeaseKeeper;
  private scheduled = false;
  /** Every fence this process wrote under (a test checks a deposed one is refused). */
  readonly fences: LeaseFence[] = [];

  constructor(options: QueuesDaemonOptions<DatabaseClient>) {
    super(options);
    this.keeper = new LeaseKeeper(this.db, {
      name: SCHEDULE_LEASE,
      holder: `${this.name}@${this.nodeUuid}/${process.pid}`,
      ttlMs: 3000,
      onAcquired: () => this.wake(),
    });
    this.handle(BUILD_QUEUE, (payload, ctx) => this.build(payload, ctx));
  }

  private async build(payload: unknown, ctx: JobContext): Promise<Built> {
    const image = (payload as { image?: unknown } | null)?.image;
    if (typeof image !== 'string') throw new Error('payload.image: a string');
    if (ctx.signal.aborted) throw new Error('stopped');
    return { image, bytes: image.length * 1024 };
  }

  protected override async onStart(): Promise<void> {
    await super.onStart();
    this.keeper.start();
  }

  protected override async onStop(): Promise<void> {
    await super.onStop();
    await this.keeper.stop();
  }

  protected override async step(): Promise<number> {
    const wait = await super.step();
    if (this.scheduled || !this.keeper.isHolder()) return wait;
    // The singleton job: write the schedule once, fenced by the lease.
    try {
      const fence = this.keeper.requireFence();
      this.fences.push(fence);
      await this.db.setClusterConfig(SCHEDULE_KEY, { by: this.nodeUuid }, { fence });
      this.scheduled = true;
    } catch (err) {
      if (!(err instanceof Fenced)) throw err;
    }
    return wait;
  }

  get hasScheduled(): boolean {
    return this.scheduled;
  }
}
