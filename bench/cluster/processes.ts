// The simulator as a child process of the benchmark (the replicas are the harness's,
// harness/replica.ts). Started through `Children` (harness/children.ts), in its own
// process group (a Ctrl-C reaches the orchestrator only, which then stops it in order),
// and stopped on exit, error or signal.
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { eachLine, tail } from '../../harness/children.js';
import type { Children, ExitStatus } from '../../harness/children.js';
import type { SimEvent } from './protocol.js';

/**
 * The simulator's V8 flags. It holds in one heap what thousands of daemon processes would
 * hold apart, and much of what a daemon allocates lives for seconds: an idle until its next
 * period, a call in flight. With V8's default young generation (16 MB semi-spaces) 7,000
 * daemons' allocations filled it twice a second and 40 % of them were promoted (13 MB/s of
 * 33 MB/s, sampled at 1,000 nodes quiet); the old generation's major collection then held
 * the simulator's one thread for about a second once a minute, a stall no real node has,
 * seen as heartbeat gaps over their bound. With 64 MB semi-spaces the major collection
 * comes less often: the quiet 1,000-node cluster held every duty in two runs of three (none
 * of three with the default; the third had one such stall). Under churn it does not help:
 * the simulator still promotes about 14 MB/s and each scavenge takes about 90 ms
 * (docs/BENCHMARKS.md, "The simulator's heap").
 */
export const SIM_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];

/**
 * `node --max-semi-space-size=64 --import tsx <simMain> <config>` in its own process
 * group, stdout piped (its events), stderr appended to `logPath`.
 */
export function spawnSimulator(children: Children, simMain: string, configPath: string, logPath: string): ChildProcess {
  const log = openSync(logPath, 'a');
  try {
    return children.spawnTs(simMain, [configPath], { stdio: ['ignore', 'pipe', log], detached: true, execArgv: SIM_NODE_FLAGS });
  } finally {
    closeSync(log);
  }
}

/** A running simulator: its events as they arrive (each stamped with when we read it). */
export class Simulator {
  readonly events: SimEvent[] = [];
  private readonly waiters = new Set<() => void>();
  private exit: ExitStatus | undefined;
  /** Lines on stdout that were not SimEvent JSON (shown when something goes wrong). */
  readonly noise: string[] = [];

  constructor(
    readonly proc: ChildProcess,
    readonly logPath: string,
  ) {
    eachLine(proc.stdout, (line) => {
      if (line.trim() !== '') this.take(line.trim());
    });
    proc.once('exit', (code, signal) => {
      this.exit = { code, signal };
      this.wake();
    });
  }

  private take(line: string): void {
    try {
      const event = JSON.parse(line) as SimEvent;
      if (typeof event === 'object' && event !== null && typeof event.event === 'string') {
        this.events.push(event);
        this.wake();
        return;
      }
    } catch {
      // not JSON
    }
    if (this.noise.length < 50) this.noise.push(line);
  }

  private wake(): void {
    for (const w of this.waiters) w();
  }

  get exitStatus(): ExitStatus | undefined {
    return this.exit;
  }

  /** Resolves with the first event matching `test`; rejects when the simulator exits or `timeoutMs` passes. */
  async waitFor<E extends SimEvent>(test: (e: SimEvent) => e is E, what: string, timeoutMs: number): Promise<E> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(test);
      if (found) return found;
      if (this.exit) {
        throw new Error(`the simulator exited (${this.exit.signal ?? `code ${this.exit.code}`}) before ${what}:\n${[...this.noise, tail(this.logPath)].join('\n')}`);
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`the simulator did not report ${what} within ${timeoutMs} ms:\n${tail(this.logPath)}`);
      await this.next(left);
    }
  }

  /** Waits for the next event (or exit), at most `ms`. */
  next(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }
}
