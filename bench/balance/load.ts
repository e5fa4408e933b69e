// One load client of `npm run bench:balance`, forked by main.ts with its policy: one typed
// client (one channel, `balance` as given) over the three replicas, and a closed loop of
// `callers` callers, each reading a random seeded node and at once the next. Driven over
// IPC: `run` answers the latencies of the calls that completed inside the window.
import { createClient } from '../../client/index.js';
import type { BalancePolicy } from '../../client/config.js';

export interface LoadJob {
  readonly policy: BalancePolicy;
  readonly targets: readonly string[];
  readonly callers: number;
  readonly uuids: readonly string[];
}

export type LoadCommand = { cmd: 'run'; warmupMs: number; durationMs: number } | { cmd: 'stop' };

export interface PhaseResult {
  /** Latencies (ms) of the calls that completed inside the measured window. */
  readonly latenciesMs: number[];
  readonly errors: number;
  readonly firstError: string | undefined;
  readonly seconds: number;
}

function send(message: unknown): void {
  process.send?.(message);
}

async function phase(read: (uuid: string) => Promise<unknown>, job: LoadJob, warmupMs: number, durationMs: number): Promise<PhaseResult> {
  const latenciesMs: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let state: 'warmup' | 'measure' | 'done' = 'warmup';
  const caller = async (): Promise<void> => {
    while (state !== 'done') {
      const uuid = job.uuids[Math.floor(Math.random() * job.uuids.length)] as string;
      const counted = state === 'measure';
      const t0 = performance.now();
      try {
        await read(uuid);
        if (counted && state === 'measure') latenciesMs.push(performance.now() - t0);
      } catch (err) {
        if (counted && state === 'measure') {
          errors += 1;
          firstError ??= (err as Error).message;
        }
      }
    }
  };
  const loops = Array.from({ length: job.callers }, caller);
  await new Promise((resolve) => setTimeout(resolve, warmupMs));
  state = 'measure';
  const t0 = performance.now();
  await new Promise((resolve) => setTimeout(resolve, durationMs));
  state = 'done';
  const seconds = (performance.now() - t0) / 1000;
  await Promise.all(loops);
  return { latenciesMs, errors, firstError, seconds };
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] as string) as LoadJob;
  // No cache: every read reaches a replica.
  const db = createClient({ targets: [...job.targets], balance: job.policy, callerDaemon: 'bench', cache: false, deadlineMs: 10_000 });
  process.on('message', (message: LoadCommand) => {
    if (message.cmd === 'stop') {
      db.close();
      process.disconnect();
      return;
    }
    phase((uuid) => db.getNode(uuid), job, message.warmupMs, message.durationMs).then(send, (err: unknown) => {
      process.stderr.write(`bench:balance load (${job.policy}): ${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    });
  });
  send({ ready: true });
}

void main();
