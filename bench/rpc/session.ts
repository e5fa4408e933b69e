// One load client process (target × in-flight value) as the orchestrator drives it:
// started once, then asked for rounds; the CPU of the server process and of mariadbd is
// sampled over each round's measured window, and the tier's request counter over the
// whole session.
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { processCpuSeconds } from '../../harness/children.js';
import type { Children } from '../../harness/children.js';
import { Messages } from './children.js';
import type { ClientMessage, ClientSummary, LoadJob, RoundResult, Target } from './protocol.js';

/** What is watched besides the load client. */
export interface Observed {
  /** The server process (bare or tier); none for direct. */
  server: number | undefined;
  mariadb: number | undefined;
  /** The tier's database_requests_total for this benchmark's calls. */
  requestCount?: () => Promise<number>;
}

/** A round with the CPU the server and mariadbd used in its window (µs, totals). */
export interface RoundRecord extends RoundResult {
  serverCpuUs: number;
  mariadbCpuUs: number;
}

/** Everything one load client measured. */
export interface TargetRun {
  target: Target;
  inflight: number;
  rounds: RoundRecord[];
  summary: ClientSummary;
  /** For the tier: calls its counter grew by during the session (should be summary.allCalls). */
  serverCounted: number | undefined;
}

export class LoadSession {
  private readonly rounds: RoundRecord[] = [];

  private constructor(
    private readonly children: Children,
    private readonly child: ChildProcess,
    private readonly messages: Messages<ClientMessage>,
    private readonly job: LoadJob,
    private readonly observed: Observed,
    private readonly countBefore: number | undefined,
  ) {}

  private get what(): string {
    return `load client (${this.job.target}, ${this.job.inflight} in flight)`;
  }

  static async start(children: Children, dir: string, job: LoadJob, observed: Observed): Promise<LoadSession> {
    const countBefore = await observed.requestCount?.();
    const child = children.forkTs(join(dir, 'load-client.ts'), []);
    const session = new LoadSession(children, child, new Messages<ClientMessage>(child), job, observed, countBefore);
    child.send({ kind: 'start', job });
    await session.expect('ready', 60_000);
    return session;
  }

  private async expect<K extends ClientMessage['kind']>(kind: K, timeoutMs: number): Promise<Extract<ClientMessage, { kind: K }>> {
    const message = await this.messages.next(this.what, timeoutMs);
    if (message.kind === 'failed') throw new Error(`${this.what}: ${message.error}`);
    if (message.kind !== kind) throw new Error(`${this.what}: answered ${message.kind}, expected ${kind}`);
    return message as Extract<ClientMessage, { kind: K }>;
  }

  async round(warmupMs: number, durationMs: number): Promise<RoundRecord> {
    this.child.send({ kind: 'round', warmupMs, durationMs });
    await this.expect('measuring', warmupMs + 60_000);
    const start = { server: processCpuSeconds(this.observed.server), mariadb: processCpuSeconds(this.observed.mariadb) };
    const { result } = await this.expect('round', durationMs + 60_000);
    const end = { server: processCpuSeconds(this.observed.server), mariadb: processCpuSeconds(this.observed.mariadb) };
    const record = { ...result, serverCpuUs: (end.server - start.server) * 1e6, mariadbCpuUs: (end.mariadb - start.mariadb) * 1e6 };
    this.rounds.push(record);
    return record;
  }

  /** Calls for `ms`, nothing measured (a server's JIT warm-up). */
  async warm(ms: number): Promise<void> {
    this.child.send({ kind: 'round', warmupMs: ms, durationMs: 0 });
    await this.expect('measuring', ms + 60_000);
    await this.expect('round', 60_000);
  }

  async stop(): Promise<TargetRun> {
    try {
      this.child.send({ kind: 'stop' });
      const { summary } = await this.expect('summary', 60_000);
      const countAfter = await this.observed.requestCount?.();
      return {
        target: this.job.target,
        inflight: this.job.inflight,
        rounds: this.rounds,
        summary,
        serverCounted: this.countBefore !== undefined && countAfter !== undefined ? countAfter - this.countBefore : undefined,
      };
    } finally {
      await this.children.stop(this.child, 5_000);
    }
  }
}
