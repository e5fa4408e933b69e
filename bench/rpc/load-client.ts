// The load generator, one process per target and in-flight value (forked by main.ts,
// driven over IPC, see protocol.ts): a closed loop of `inflight` callers, each reading a
// random seeded node and at once the next. The orchestrator asks for short rounds, so
// the targets' rounds interleave; between rounds the loop is idle. A call counts when
// it completes inside a round's measured window.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RowDataPacket } from 'mysql2/promise';
import { createClient } from '../../client/index.js';
import { createPool } from '../../server/db/pool.js';
import { selectNodeSql } from './point-read.js';
import type { ClientCommand, ClientMessage, ClientSummary, LoadJob, RoundResult } from './protocol.js';
import { Samples, percentile } from '../../harness/stats.js';

/** One point read; resolves false when the node was not found. */
type PointRead = (uuid: string) => Promise<boolean>;

async function connect(job: LoadJob): Promise<{ read: PointRead; close: () => Promise<void> }> {
  if (job.target === 'direct') {
    const sql = await selectNodeSql();
    const pool = createPool({ url: job.address, connectionLimit: job.poolSize });
    return {
      read: async (uuid) => (await pool.execute<RowDataPacket[]>(sql, [uuid]))[0].length === 1,
      close: () => pool.end(),
    };
  }
  // No client-side cache: every read must reach the server.
  const db = createClient({ targets: job.address, callerDaemon: 'bench', cache: false });
  return {
    read: async (uuid) => (await db.getNode(uuid)) !== undefined,
    close: async () => db.close(),
  };
}

function send(message: ClientMessage, then?: () => void): void {
  process.send?.(message, undefined, undefined, then);
}

class LoadClient {
  private readonly all = new Samples();
  private allCalls = 0;
  private errors = 0;
  private firstError: string | undefined;
  private seconds = 0;

  constructor(
    private readonly job: LoadJob,
    private readonly read: PointRead,
  ) {}

  async round(warmupMs: number, durationMs: number): Promise<RoundResult> {
    const samples = new Samples();
    let phase: 'warmup' | 'measure' | 'done' = 'warmup';
    let errors = 0;
    let firstError: string | undefined;
    const { uuids } = this.job;

    const caller = async (): Promise<void> => {
      while (phase !== 'done') {
        const uuid = uuids[Math.floor(Math.random() * uuids.length)] as string;
        const t0 = process.hrtime.bigint();
        let ok: boolean;
        let failure: string | undefined;
        try {
          ok = await this.read(uuid);
          if (!ok) failure = `node ${uuid} not found`;
        } catch (err) {
          ok = false;
          failure = (err as Error).message;
        }
        const t1 = process.hrtime.bigint();
        this.allCalls += 1;
        if (phase === 'measure') {
          if (ok) samples.add(Number(t1 - t0));
          else {
            errors += 1;
            firstError ??= failure;
          }
        }
        // A failure that comes back at once must not starve the timers that end the round.
        if (!ok) await nextTurn();
      }
    };

    const callers = Array.from({ length: this.job.inflight }, () => caller());
    await new Promise((resolve) => setTimeout(resolve, warmupMs));
    send({ kind: 'measuring' });
    phase = 'measure';
    const start = process.hrtime.bigint();
    const cpuStart = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, durationMs));
    const end = process.hrtime.bigint();
    const cpu = process.cpuUsage(cpuStart);
    phase = 'done';
    await Promise.all(callers);

    const seconds = Number(end - start) / 1e9;
    const sorted = samples.sorted();
    for (const v of sorted) this.all.add(v);
    this.errors += errors;
    this.firstError ??= firstError;
    this.seconds += seconds;
    return {
      calls: samples.count,
      errors,
      firstError,
      seconds,
      callsPerSecond: samples.count / seconds,
      p50Ms: percentile(sorted, 0.5) / 1e6,
      p99Ms: percentile(sorted, 0.99) / 1e6,
      clientCpuUs: cpu.user + cpu.system,
    };
  }

  summary(): ClientSummary {
    const sorted = this.all.sorted();
    return {
      calls: this.all.count,
      errors: this.errors,
      firstError: this.firstError,
      seconds: this.seconds,
      p50Ms: percentile(sorted, 0.5) / 1e6,
      p99Ms: percentile(sorted, 0.99) / 1e6,
      allCalls: this.allCalls,
    };
  }
}

let client: LoadClient | undefined;
let close: (() => Promise<void>) | undefined;
let stopping = false;

async function handle(command: ClientCommand): Promise<void> {
  switch (command.kind) {
    case 'start': {
      const connection = await connect(command.job);
      client = new LoadClient(command.job, connection.read);
      close = connection.close;
      send({ kind: 'ready' });
      return;
    }
    case 'round': {
      if (!client) throw new Error('round before start');
      send({ kind: 'round', result: await client.round(command.warmupMs, command.durationMs) });
      return;
    }
    case 'stop': {
      stopping = true;
      const summary = client?.summary();
      await close?.();
      if (summary) send({ kind: 'summary', summary }, () => process.exit(0));
      else process.exit(0);
      return;
    }
  }
}

if (!process.send) {
  process.stderr.write('load-client: run by bench/rpc/main.ts (needs an IPC channel)\n');
  process.exit(2);
}
// The orchestrator gone (even killed) closes the IPC channel: never outlive it.
process.on('disconnect', () => process.exit(stopping ? 0 : 1));
process.on('message', (command: ClientCommand) => {
  handle(command).catch((err: unknown) => send({ kind: 'failed', error: (err as Error).stack ?? String(err) }));
});
