// One ending for every benchmark main (`npm run bench:*`, `npm run demo`, `npm run
// budget:derive`). What a run takes — its temporary directory, its MariaDB, its child
// processes, … — are parts of one Lifecycle (proto/runtime/lifecycle.ts), started in the order
// they were added and stopped in reverse, whichever way the run ends:
//   - the body returns a code: every part is stopped, then the process exits with it;
//   - the body fails (a failed start included): every part is stopped, exit 1;
//   - SIGINT or SIGTERM: every part is stopped without waiting for the body (what it
//     still does fails as its parts go), exit 130. A repeated signal does not cut the stop
//     short (the tsx CLI, `npx tsx bench/…`, relays the terminal's Ctrl-C to its child,
//     which the terminal signalled too).
// The npm scripts run the mains with `node --import tsx`, not the tsx CLI: it SIGKILLs a
// child that has not acknowledged a signal within about 60 ms (an event loop busy with
// mariadb-install-db or a cached read loop), which would leave MariaDB and the directory.
//
//   runBench('bench:x', async (bench) => {
//     const tier = bench.tier({ dir: 'sfdb-bench-x-', server: 'mariadb', database: 'bench' });
//     const children = bench.children();         // the load clients: stopped before the tier
//     await bench.start();
//     const replica = await tier.add({ name: 'tier', env: { … } });
//     … measure …
//     return 0;
//   });
import { Lifecycle, stopOnSignals } from '../proto/runtime/lifecycle.js';
import type { Component } from '../proto/runtime/lifecycle.js';
import { Children } from './children.js';
import { ProcessCluster } from './cluster.js';
import type { ProcessClusterOptions } from './cluster.js';
import { TempDir } from './temp-dir.js';

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/** The exit code of a run a signal stopped (128 + SIGINT), whichever signal it was. */
export const EXIT_SIGNALLED = 130;

/** The exit code of a run refused for its options. */
export const EXIT_USAGE = 2;

/**
 * What `parse` makes of this process's arguments; undefined once it has said on stderr
 * why they are refused (followed by `usage`, when given): the run then returns EXIT_USAGE.
 */
export function parseCommandLine<T>(parse: (argv: string[]) => T, usage?: string): T | undefined {
  try {
    return parse(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${usage !== undefined ? `${usage}\n` : ''}`);
    return undefined;
  }
}

export interface Bench {
  /** Adds parts, before start(): started in this order, stopped in reverse. */
  add(...parts: Component[]): void;
  /** Adds a temporary directory (its path is known once started); the dead runs of its prefix are reaped first. */
  tempDir(prefix: string): TempDir;
  /**
   * Adds a tier (harness/cluster.ts): its directory, its database servers and its replicas,
   * started with the run's parts and stopped in reverse; what the bench says, it says.
   */
  tier(options: ProcessClusterOptions): ProcessCluster;
  /** Adds the run's child processes (of this repository's root): stopped, the last started first, SIGKILL after `graceMs`. */
  children(graceMs?: number): Children;
  /** Starts the parts in order; on a failure stops those that started, in reverse, and rejects. */
  start(): Promise<void>;
  /** Aborted (reason: the signal) by the signals a run takes as "finish now" (`interruptions`). */
  readonly interrupted: AbortSignal;
}

export interface RunBenchOptions {
  /** The exit code after a signal stopped the run: 130 unless told (the demo ends by Ctrl-C: 0). */
  signalExitCode?: number;
  /**
   * How many signals only abort `interrupted` (the body winds down and reports what it
   * has) before the next one stops every part: 0 unless told.
   */
  interruptions?: number;
}

/** Runs `body` as the process's main (`name` prefixes its messages) and exits the process as described above. */
export function runBench(name: string, body: (bench: Bench) => Promise<number>, options: RunBenchOptions = {}): void {
  const say = (message: string): void => void process.stderr.write(`${name}: ${message}\n`);
  const lifecycle = new Lifecycle({
    onEvent: ({ component: part, phase, err }) => {
      if (phase === 'stop failed') say(`could not stop the ${part}: ${err instanceof Error ? err.message : String(err)}`);
    },
  });
  const interrupt = new AbortController();
  let signalled = false;

  const stopOnNextSignal = (): void => {
    const ending = stopOnSignals(lifecycle, {
      repeated: 'wait',
      onSignal: (signal, again) => {
        signalled = true;
        if (again) say(`${signal} again: still stopping (a stop is not cut short)`);
        else say(`${signal}: stopping ${[...lifecycle.names].reverse().join(', ') || 'nothing (none started)'}`);
      },
    });
    void ending.exitCode.then(() => process.exit(options.signalExitCode ?? EXIT_SIGNALLED));
  };
  const interruptions = options.interruptions ?? 0;
  if (interruptions > 0) {
    let heard = 0;
    const onInterrupt = (signal: NodeJS.Signals): void => {
      interrupt.abort(signal);
      if (++heard < interruptions) return;
      for (const s of SIGNALS) process.off(s, onInterrupt);
      stopOnNextSignal();
    };
    for (const s of SIGNALS) process.on(s, onInterrupt);
  } else {
    stopOnNextSignal();
  }

  const bench: Bench = {
    add: (...parts) => void lifecycle.add(...parts),
    tempDir: (prefix) => {
      const dir = new TempDir(prefix, say);
      lifecycle.add(dir);
      return dir;
    },
    tier: (tierOptions) => {
      const tier = new ProcessCluster({ say, ...tierOptions });
      lifecycle.add(tier);
      return tier;
    },
    children: (graceMs) => {
      const children = new Children();
      lifecycle.add(children.part(graceMs));
      return children;
    },
    start: () => lifecycle.start(),
    interrupted: interrupt.signal,
  };
  // After a signal, the signal's stop ends the process: the body's outcome is not news.
  const finish = async (code: number): Promise<void> => {
    const stopped = await lifecycle.stop().then(
      () => true,
      () => false, // each failure said by onEvent
    );
    if (!signalled) process.exit(stopped || code !== 0 ? code : 1);
  };
  void body(bench).then(
    (code) => (signalled ? undefined : finish(code)),
    (err: unknown) => {
      if (signalled) return undefined;
      say(err instanceof Error ? (err.stack ?? err.message) : String(err));
      return finish(1);
    },
  );
}
