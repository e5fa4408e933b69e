// Freezing a process (SIGSTOP) for a test, and the proof that it is frozen. kill(2)
// returns once SIGSTOP is queued, not once the process has stopped: the stop is carried
// out by one of the target's own threads when the scheduler next runs it, and only then
// are the others told. Until then its threads run on: a MariaDB SIGSTOPped by
// process.kill answered a SELECT 1 sent right after in 13 of 300 trials on an idle
// machine and 4 of 300 with both cores busy, and a tier's /readyz right after answered
// 200 in 2 of 150 and 1 of 150 (issue 36: the outage test's "expected 200 to be 503");
// none of 900 did once every thread was seen stopped first. A test that asserts what a
// frozen process does must first see it frozen.
import { readdirSync, readFileSync } from 'node:fs';

/**
 * How long a SIGSTOP may take to stop every thread: far above what it takes (over 300
 * freezes of a node process beside two busy loops, p99 64 ms, at most 70 ms).
 */
const STOP_BOUND_MS = 5_000;

/** The scheduler state of each thread of `pid` (R running, S sleeping, T stopped, …), from /proc. */
export function threadStates(pid: number): string[] {
  const states: string[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    } catch {
      continue; // the thread ended since the listing
    }
    // "tid (comm) S …": comm may hold spaces and parentheses; the state follows the last ')'.
    states.push(stat.charAt(stat.lastIndexOf(')') + 2));
  }
  return states;
}

/** Every thread stopped (T), traced-stopped (t), or ending (Z, X). */
const stopped = (states: string[]): boolean => states.every((s) => 'TtZX'.includes(s));

/**
 * Sends SIGSTOP to `pid` and resolves once every one of its threads is stopped; fails
 * with the thread states it last saw if that takes longer than STOP_BOUND_MS.
 */
export async function freeze(pid: number | undefined): Promise<void> {
  if (pid === undefined) throw new Error('freeze: the process has no pid (it never started)');
  process.kill(pid, 'SIGSTOP');
  const deadline = Date.now() + STOP_BOUND_MS;
  for (let states = threadStates(pid); !stopped(states); states = threadStates(pid)) {
    if (Date.now() > deadline) throw new Error(`freeze: pid ${pid} not stopped within ${STOP_BOUND_MS} ms of SIGSTOP; thread states ${states.join('')}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

/**
 * Sends SIGCONT to `pid`. Unlike SIGSTOP this takes effect within kill(2): the sender
 * wakes every stopped thread itself. A process already gone is left alone.
 */
export function thaw(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, 'SIGCONT');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}
