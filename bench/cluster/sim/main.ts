#!/usr/bin/env node
// The cluster benchmark's simulator: `node --import tsx bench/cluster/sim/main.ts <config.json>`.
// Reads a SimConfig (../protocol.ts), runs the seven simulated daemons of every node in
// the config's mode, and prints SimEvent JSON lines on stdout: `ready` once every daemon
// runs, `noticed` and `period` as duties are met, `cpu` every 5 s (this process's
// cumulative CPU and its event loop's longest stall), and `stopped` after SIGTERM (or
// SIGINT) has stopped every daemon; then it exits 0. Diagnostics go to stderr (pino,
// level SIM_LOG_LEVEL, default warn).
// With SIM_TASKS_FILE set, the periodic-task registry (every declared periodic call of
// the simulated daemons, daemons/periodic.ts) is written there as JSON once all run.
// Exit: 0 stopped, 1 failed to start (or to stop), 2 bad usage or config (or a mode not
// here yet). The CPU reports and the simulated daemons are parts of one lifecycle
// (proto/runtime/lifecycle.ts): started in that order, stopped in reverse.
import { readFileSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pino } from 'pino';
import { listPeriodicTasks } from '../../../daemons/index.js';
import { Lifecycle, StartAbortedError, component, stopOnSignals } from '../../../proto/runtime/lifecycle.js';
import { CPU_REPORT_MS } from '../protocol.js';
import type { SimConfig, SimEvent } from '../protocol.js';
import { cacheFigures } from './cache-count.js';
import { SimCluster } from './cluster.js';
import { parseSimConfig } from './config.js';
import { FEED_NOT_YET, modePolicy } from './modes.js';

// grpc-js reads the stack of an error built for every call that fails, and a start storm
// fails thousands (the tier sheds with pushback); tsx maps each stack through source maps,
// which cost the simulator's one thread a twentieth of a cold start at 1,000 nodes. The
// simulator's own stack traces then name transpiled lines, enough for a benchmark.
process.setSourceMapsEnabled(false);

// Events are written in one piece per turn of the event loop: a write to a pipe is a
// synchronous system call on Linux, and a wake-up of every process emits 7,000 events in
// a second at 1,000 nodes. Each event carries its own time, taken when it happened.
let pending: string[] = [];

function emit(event: SimEvent): void {
  if (pending.length === 0) setImmediate(flush);
  pending.push(JSON.stringify(event));
}

function flush(): void {
  if (pending.length === 0) return;
  const lines = `${pending.join('\n')}\n`;
  pending = [];
  process.stdout.write(lines);
}

function fail(code: number, message: string): never {
  flush();
  process.stderr.write(`sim: ${message}\n`);
  process.exit(code);
}

async function main(): Promise<void> {
  const path = process.argv[2];
  if (path === undefined) fail(2, 'usage: sim/main.ts <config.json>');
  let config: SimConfig;
  try {
    config = parseSimConfig(JSON.parse(readFileSync(path, 'utf8')) as unknown);
  } catch (err) {
    fail(2, `${path}: ${(err as Error).message}`);
  }
  const policy = modePolicy(config.mode, config.periods);
  if (!policy) fail(2, FEED_NOT_YET);

  const log = pino({ level: process.env['SIM_LOG_LEVEL'] ?? 'warn', base: { sim: config.mode } }, pino.destination(2));
  const cluster = new SimCluster(config, policy, emit, log);

  // The event loop's longest delay per report, sampled every 20 ms.
  const loopDelay = monitorEventLoopDelay({ resolution: 20 });
  const cpu = (): void => {
    const u = process.cpuUsage();
    const stallMs = Math.round(loopDelay.max / 1e6);
    loopDelay.reset();
    emit({ event: 'cpu', at: Date.now(), userMs: Math.round(u.user / 1000), systemMs: Math.round(u.system / 1000), stallMs });
  };
  let cpuTimer: NodeJS.Timeout | undefined;
  let daemons = 0;
  const lifecycle = new Lifecycle().add(
    component(
      'cpu reports',
      () => {
        loopDelay.enable();
        cpuTimer = setInterval(cpu, CPU_REPORT_MS);
      },
      () => {
        clearInterval(cpuTimer);
        loopDelay.disable();
      },
    ),
    component('simulated daemons', async () => void (daemons = await cluster.start()), () => cluster.stop()),
  );
  // A signal during the start stops the daemons once started; a second one waits for that.
  const signals = stopOnSignals(lifecycle, {
    repeated: 'wait',
    onStopError: (err) => process.stderr.write(`sim: could not stop the simulated daemons: ${(err as Error).message}\n`),
  });
  void signals.exitCode.then(async (code) => {
    cpu();
    emit({ event: 'cache', at: Date.now(), ...(await cacheFigures()) });
    emit({ event: 'stopped', at: Date.now() });
    flush();
    process.exit(code);
  });

  try {
    await lifecycle.start();
  } catch (err) {
    if (err instanceof StartAbortedError) return; // a signal during the start: its stop reports
    fail(1, `could not start the simulated daemons: ${(err as Error).message}`);
  }
  const tasksFile = process.env['SIM_TASKS_FILE'];
  if (tasksFile) writeFileSync(tasksFile, `${JSON.stringify(listPeriodicTasks(), null, 2)}\n`);
  emit({ event: 'ready', at: Date.now(), daemons });
}

main().catch((err: unknown) => fail(1, (err as Error).stack ?? String(err)));
