#!/usr/bin/env node
// The cluster benchmark's simulator: `node --import tsx bench/cluster/sim/main.ts <config.json>`.
// Reads a SimConfig (../protocol.ts), runs the seven simulated daemons of every node in
// the config's mode, and prints SimEvent JSON lines on stdout: `ready` once every daemon
// runs, `noticed` and `period` as duties are met, `cpu` every 5 s (this process's
// cumulative CPU), and `stopped` after SIGTERM (or SIGINT) has stopped every daemon;
// then it exits 0. Diagnostics go to stderr (pino, level SIM_LOG_LEVEL, default warn).
// With SIM_TASKS_FILE set, the periodic-task registry (every declared periodic call of
// the simulated daemons, daemons/periodic.ts) is written there as JSON once all run.
// Exit: 0 stopped, 1 failed to start, 2 bad usage or config (or a mode not here yet).
import { readFileSync, writeFileSync } from 'node:fs';
import { pino } from 'pino';
import { listPeriodicTasks } from '../../../daemons/index.js';
import type { SimConfig, SimEvent } from '../protocol.js';
import { SimCluster } from './cluster.js';
import { parseSimConfig } from './config.js';
import { FEED_NOT_YET, modePolicy } from './modes.js';

const CPU_EVERY_MS = 5000;

function emit(event: SimEvent): void {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

function fail(code: number, message: string): never {
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

  const cpu = (): void => {
    const u = process.cpuUsage();
    emit({ event: 'cpu', at: Date.now(), userMs: Math.round(u.user / 1000), systemMs: Math.round(u.system / 1000) });
  };
  const cpuTimer = setInterval(cpu, CPU_EVERY_MS);

  let shutdown: Promise<void> | undefined;
  const onSignal = (): void => {
    shutdown ??= (async () => {
      await cluster.stop();
      clearInterval(cpuTimer);
      cpu();
      emit({ event: 'stopped', at: Date.now() });
      process.exit(0);
    })();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  let daemons: number;
  try {
    daemons = await cluster.start();
  } catch (err) {
    if (shutdown) return; // a signal during the start: the shutdown reports
    clearInterval(cpuTimer);
    fail(1, `could not start the simulated daemons: ${(err as Error).message}`);
  }
  if (shutdown) return;
  const tasksFile = process.env['SIM_TASKS_FILE'];
  if (tasksFile) writeFileSync(tasksFile, `${JSON.stringify(listPeriodicTasks(), null, 2)}\n`);
  emit({ event: 'ready', at: Date.now(), daemons });
}

main().catch((err: unknown) => fail(1, (err as Error).stack ?? String(err)));
