// What machine a benchmark ran on, for the figures in docs/BENCHMARKS.md.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { findBinary } from '../server/embedded/mariadb.js';

export interface Machine {
  nproc: number;
  cpu: string;
  node: string;
  mariadb: string;
}

export function describeMachine(): Machine {
  let cpu = 'unknown';
  try {
    cpu = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpu;
  } catch {
    // not Linux
  }
  const mariadbd = findBinary('mariadbd');
  const version = mariadbd ? spawnSync(mariadbd, ['--version'], { encoding: 'utf8' }).stdout.trim() : '';
  return { nproc: availableParallelism(), cpu, node: process.version, mariadb: version || 'unknown' };
}

/** The 1-minute load average, for "load before / after" lines. */
export function load1(): string {
  return loadavg()[0]?.toFixed(2) ?? '?';
}
