// The `transfers` daemon: asks for its node's active blob transfers (GetBlobTransfersForNode)
// with the dequeue backoff (0.2 → 2 s, reset on work; naive: every 0.2 s), reports each
// queued one as noticed when it finds it, and runs it: RUNNING, then COMPLETE. A transfer
// found RUNNING (left by an earlier instance of this daemon) is completed too.
import type { BlobTransfer } from '../../../../client/index.js';
import { DequeueBackoff } from '../../../../daemons/index.js';
import type { PeriodicTask } from '../../../../daemons/index.js';
import { SimDaemon } from './base.js';

const LIMIT = 100;

export class SimTransfersDaemon extends SimDaemon {
  private readonly backoff = new DequeueBackoff(this.sim.policy.transfersBackoffMs);
  completed = 0;

  protected simTasks(): Omit<PeriodicTask, 'daemon'>[] {
    const steps = this.sim.policy.transfersBackoffMs;
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
    const active = await this.db.getBlobTransfersForNode(this.nodeUuid, { limit: LIMIT });
    const queued = active.filter((t) => t.state === 'TRANSFER_QUEUED');
    for (const t of queued) {
      this.sim.emit({ event: 'noticed', duty: 'transfer', node: this.nodeUuid, daemon: this.sim.type, id: t.id, at: Date.now() });
    }
    await Promise.all(active.map((t) => this.runTransfer(t)));
    return this.backoff.next(active.length === 0 ? 'empty' : active.length >= LIMIT ? 'full' : 'partial');
  }

  private async runTransfer(t: BlobTransfer): Promise<void> {
    try {
      if (t.state === 'TRANSFER_QUEUED') await this.db.updateBlobTransfer(t.id, { state: 'TRANSFER_RUNNING', message: `started by ${this.name}` });
      await this.db.updateBlobTransfer(t.id, { state: 'TRANSFER_COMPLETE', bytesDone: t.bytesTotal, message: 'simulated transfer' });
      this.completed += 1;
    } catch (err) {
      this.countError(err);
    }
  }
}
