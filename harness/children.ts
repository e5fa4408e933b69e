// The child processes of a benchmark or a test: `node --import tsx <module>` of this
// repository (spawnTs, forkTs, runTs), or plain `node <module>` of its build (spawnNode,
// forkNode: a benchmark of what ships), with one environment policy (childEnv); started
// through `Children`, every one is stopped on exit, error or Ctrl-C (its `part()` in the
// run's lifecycle). Their output read line by line, and what a process has used of the
// CPU and memory (from /proc).
import { fork, spawn, spawnSync } from 'node:child_process';
import type { ChildProcess, StdioOptions } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { component } from '../proto/runtime/lifecycle.js';
import type { Component } from '../proto/runtime/lifecycle.js';

/** The repository's root: the children's working directory (tsx and the module paths resolve from it). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The variable every child carries naming the process that started it: a later run
 * finds what a killed run left by it (leftovers.ts), where a pid alone could be reused.
 */
export const OWNER_VARIABLE = 'HARNESS_OWNER_PID';

/**
 * The environment of a child: PATH and HOME, the owner tag, and `extra`. Nothing else of
 * ours leaks in (an SFDB_* of the shell would change the tier under measurement).
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', [OWNER_VARIABLE]: String(process.pid), ...extra };
}

/** The last `lines` lines of a log file ('' while there is none). */
export function tail(path: string, lines = 30): string {
  if (!existsSync(path)) return '';
  return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

/** In a child: the environment variable `name`, which it cannot run without. */
export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

/** In a child: one event as a JSON line on stdout (its parent reads them with eachLine), with the wall time. */
export function sayEvent(event: string, extra: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ event, at: Date.now(), ...extra })}\n`);
}

/** Calls `onLine` with every complete line `stream` writes (a child's stdout of JSON events), in order. */
export function eachLine(stream: Readable | null | undefined, onLine: (line: string) => void): void {
  let buffered = '';
  stream?.on('data', (d: Buffer) => {
    buffered += d.toString();
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      onLine(line);
    }
  });
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Resolves with how `child` exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<ExitStatus> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** Sends `signal` to `pid` unless it is gone already. */
export function kill(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, signal);
  } catch {
    // gone already
  }
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
async function stopChild(child: ChildProcess, graceMs: number): Promise<ExitStatus> {
  if (child.pid === undefined) return { code: null, signal: null }; // never started
  const done = exited(child);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    const status = await done;
    clearTimeout(timer);
    return status;
  }
  return done;
}

let ticksPerSecond: number | undefined;

/** CPU seconds (user + system) a process has used so far, from /proc; NaN if unknown. */
export function processCpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    ticksPerSecond ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (comm) ": utime and stime are fields 14 and 15 of the line.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return Number.NaN;
  }
}

/** Resident memory (VmRSS) of a process in MB (2^20 bytes), from /proc; throws once it is gone. */
export function processRssMb(pid: number | undefined): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN);
  return kb / 1024;
}

export interface SpawnTsOptions {
  /** childEnv() unless told. */
  env?: NodeJS.ProcessEnv;
  /** Node flags (a profiler's); spawnTs adds `--import tsx` after them. */
  execArgv?: readonly string[];
  stdio?: StdioOptions;
  /** Its own process group: a Ctrl-C reaches the orchestrator only, which then stops it in order. */
  detached?: boolean;
}

/** `node [execArgv] --import tsx <script> [args]` in the repository's root, without IPC (the tier runs exactly as in production). */
export function spawnTs(script: string, args: readonly string[], opts: SpawnTsOptions = {}): ChildProcess {
  return spawnNode(script, args, { ...opts, execArgv: [...(opts.execArgv ?? []), '--import', 'tsx'] });
}

/** `node [execArgv] <script> [args]` in the repository's root, without IPC: a JavaScript module (one of the build's, dist/). */
export function spawnNode(script: string, args: readonly string[], opts: SpawnTsOptions = {}): ChildProcess {
  return spawn(process.execPath, [...(opts.execArgv ?? []), script, ...args], {
    cwd: ROOT,
    env: opts.env ?? childEnv(),
    stdio: opts.stdio ?? ['ignore', 'inherit', 'inherit'],
    detached: opts.detached ?? false,
  });
}

/** Options of a forked module. */
export interface ForkOptions {
  /** Node flags (a profiler's). */
  execArgv?: readonly string[];
  stdio?: StdioOptions;
}

/** A TypeScript module of this repository as a Node process with an IPC channel. */
export function forkTs(module: string, args: readonly string[], opts: ForkOptions = {}): ChildProcess {
  return forkNode(module, args, { ...opts, execArgv: ['--import', 'tsx', ...(opts.execArgv ?? [])] });
}

/** A JavaScript module (one of the build's, dist/) as a Node process with an IPC channel. */
export function forkNode(module: string, args: readonly string[], opts: ForkOptions = {}): ChildProcess {
  return fork(module, [...args], {
    cwd: ROOT,
    env: childEnv(),
    execArgv: [...(opts.execArgv ?? [])],
    stdio: opts.stdio ?? ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node --import tsx <script> [args]` to its end with childEnv(`env`); `onStderr` sees stderr as it grows. */
export function runTs(script: string, args: readonly string[], opts: { env?: Record<string, string>; onStderr?: (text: string) => void } = {}): Promise<Ran> {
  const proc = spawnTs(script, args, { env: childEnv(opts.env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
    opts.onStderr?.(stderr);
  });
  return new Promise((resolve) => proc.once('close', (code) => resolve({ code, stdout, stderr })));
}

export class Children {
  /** In start order. */
  private readonly live = new Set<ChildProcess>();
  private closed = false;

  /** forkTs(), stopped with the others. */
  forkTs(module: string, args: readonly string[], opts: ForkOptions = {}): ChildProcess {
    this.refuseWhenClosed(module);
    return this.track(forkTs(module, args, opts));
  }

  /** forkNode(), stopped with the others. */
  forkNode(module: string, args: readonly string[], opts: ForkOptions = {}): ChildProcess {
    this.refuseWhenClosed(module);
    return this.track(forkNode(module, args, opts));
  }

  /** spawnTs(), stopped with the others. */
  spawnTs(script: string, args: readonly string[], opts: SpawnTsOptions = {}): ChildProcess {
    this.refuseWhenClosed(script);
    return this.track(spawnTs(script, args, opts));
  }

  /** spawnNode(), stopped with the others. */
  spawnNode(script: string, args: readonly string[], opts: SpawnTsOptions = {}): ChildProcess {
    this.refuseWhenClosed(script);
    return this.track(spawnNode(script, args, opts));
  }

  /** Once stopping for good, a run still going (a signal does not wait for it) starts nothing more. */
  private refuseWhenClosed(what: string): void {
    if (this.closed) throw new Error(`not starting ${what}: the child processes are being stopped`);
  }

  private track(child: ChildProcess): ChildProcess {
    this.live.add(child);
    child.once('exit', () => this.live.delete(child));
    // A spawn failure (ENOENT) would otherwise be an unhandled 'error' event.
    child.on('error', () => this.live.delete(child));
    return child;
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
  stop(child: ChildProcess, graceMs = 15_000): Promise<ExitStatus> {
    return stopChild(child, graceMs);
  }

  /** Stops every child still running, the last started first (a load client before the tier it calls). */
  async stopAll(graceMs = 15_000): Promise<void> {
    for (const child of [...this.live].reverse()) await this.stop(child, graceMs);
  }

  /**
   * The child processes as a part of a lifecycle: nothing to start; stopping takes no new
   * child and stops every one still running (SIGKILL after `graceMs`).
   */
  part(graceMs = 15_000): Component {
    return component('child processes', () => undefined, () => {
      this.closed = true;
      return this.stopAll(graceMs);
    });
  }
}
