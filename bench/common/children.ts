// Stopping a benchmark's child processes, shared by the benchmarks' own process sets.
import type { ChildProcess } from 'node:child_process';

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

/** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
export async function stopChild(child: ChildProcess, graceMs: number): Promise<ExitStatus> {
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
