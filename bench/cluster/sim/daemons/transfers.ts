// The `transfers` daemon: asks for its node's active blob transfers (GetBlobTransfersForNode)
// with the dequeue backoff (0.2 → 2 s, reset on work; naive: every 0.2 s), reports each
// queued one as noticed when it finds it, and runs it: reads the transfer's blob (GetBlob,
// through the static-object cache when the process has one, i.e. anchor), then RUNNING,
// then COMPLETE. A transfer found RUNNING (left by an earlier instance of this daemon) is
// read and completed too. The blob read is per transfer found (work-driven), so it is not
// declared as a periodic task; a missing blob does not stop the simulated transfer.
// Feed mode: it waits on its node's transfers topic and reads only when a transfer it did
// not write itself was created or changed (its own RUNNING/COMPLETE come back as echoes),
// plus a safety read every feedSafetyPollMs.
import type { BlobTransfer } from '../../../../client/index.js';
import { DequeueBackoff } from '../../../../daemons/index.js';
import { topics } from '../../../../proto/topics.js';
import type { PeriodicTask } from '../../../../daemons/index.js';
import { SimDaemon } from './base.js';

const LIMIT = 100;

export class SimTransfersDaemon extends SimDaemon {
  private readonly backoff = new DequeueBackoff(this.sim.policy.transfersBackoffMs);
  completed = 0;

  /** Our own RUNNING/COMPLETE writes come back on our topic: these need no read. */
  private readonly ownWrites = new Set<string>();
  private first = true;

  /** Feed mode: a transfer created or updated for this node ends the idle. */
  protected override feedTopics(): string[] {
    return [topics.transfers(this.nodeUuid)];
  }

  protected simTasks(): Omit<PeriodicTask, 'daemon'>[] {
    const steps = this.sim.policy.transfersBackoffMs;
    if (this.usesFeed) {
      return [
        {
          task: 'transfers-poll',
          operation: 'GetBlobTransfersForNode',
          intervalMs: this.settings.feedSafetyPollMs,
          scale: 'process',
          duty: 'start a blob transfer assigned to this node (woken by the feed; this is the safety net; fallback: the backoff polls)',
        },
      ];
    }
    return [
      {
        task: 'transfers-poll',
        operation: 'GetBlobTransfersForNode',
        intervalMs: steps[steps.length - 1] as number,
        minIntervalMs: steps[0] as number,
        scale: 'process',
        duty: 'start a blob transfer assigned to this node',
      },
    ];
  }

  protected async step(): Promise<number> {
    if (this.feedActive) {
      const { changes, resync } = this.takeChanges();
      // Woken only by our own writes coming back: nothing new to read.
      const news = changes.filter((c) => !this.ownWrites.has(c.id));
      const due = this.first || resync || news.length > 0 || changes.length === 0; // no change at all: the safety poll
      this.first = false;
      if (!due) return this.settings.feedSafetyPollMs;
      const found = await this.poll();
      return found >= LIMIT ? 0 : this.settings.feedSafetyPollMs;
    }
    const found = await this.poll();
    return this.backoff.next(found === 0 ? 'empty' : found >= LIMIT ? 'full' : 'partial');
  }

  /** The transfers this process ran lately (their later changes are our own writes' echoes). */
  private rememberOwn(id: string): void {
    this.ownWrites.add(id);
    if (this.ownWrites.size > 1000) this.ownWrites.delete(this.ownWrites.values().next().value as string);
  }

  /** Reads this node's active transfers and runs them; answers how many it found. */
  private async poll(): Promise<number> {
    const active = await this.db.getBlobTransfersForNode(this.nodeUuid, { limit: LIMIT });
    const queued = active.filter((t) => t.state === 'TRANSFER_QUEUED');
    for (const t of queued) {
      this.sim.emit({ event: 'noticed', duty: 'transfer', node: this.nodeUuid, daemon: this.sim.type, id: t.id, at: Date.now() });
    }
    await Promise.all(active.map((t) => this.runTransfer(t)));
    return active.length;
  }

  private async runTransfer(t: BlobTransfer): Promise<void> {
    try {
      await this.db.getBlob(t.blobUuid);
      // Each of our writes publishes on our own topic; remembered so its echo costs no read.
      if (this.usesFeed) this.rememberOwn(t.id);
      if (t.state === 'TRANSFER_QUEUED') await this.db.updateBlobTransfer(t.id, { state: 'TRANSFER_RUNNING', message: `started by ${this.name}` });
      await this.db.updateBlobTransfer(t.id, { state: 'TRANSFER_COMPLETE', bytesDone: t.bytesTotal, message: 'simulated transfer' });
      this.completed += 1;
    } catch (err) {
      this.countError(err);
    }
  }
}
