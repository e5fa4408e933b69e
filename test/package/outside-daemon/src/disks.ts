// A daemon of another repository: a queue worker that "resizes disks", written against
// the documented API (docs/daemons.md, docs/client.md) and nothing else: @sfdb/client, @sfdb/daemon.
import type { DatabaseClient } from '@sfdb/client';
import { QueuesDaemon } from '@sfdb/daemon';

export const QUEUE = 'resize-disk';

export interface Resized {
  resized: string;
}

/** The daemon for `nodeUuid`; `onJob` hears each job it ran (what a test waits on). */
export function disksDaemon(db: DatabaseClient, nodeUuid: string, onJob: (disk: string) => void = () => {}): QueuesDaemon {
  return new QueuesDaemon({ name: 'queues', nodeUuid, db }).handle(QUEUE, async (payload, ctx): Promise<Resized> => {
    if (ctx.signal.aborted) throw new Error('stopped before it began');
    const disk = (payload as { disk: string }).disk;
    onJob(disk);
    return { resized: disk };
  });
}
