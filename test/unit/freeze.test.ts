// test/helpers/freeze.ts on a real process: freeze() resolves only once every thread of it
// is stopped (a node process runs several), and the process then does nothing until
// thaw(). The chaos and outage tests rely on it to assert what a frozen process does.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect, it } from 'vitest';
import { freeze, thaw, threadStates } from '../../harness/freeze.js';
import { waitFor } from '../helpers/wait.js';

it('freeze resolves with every thread stopped, nothing runs until thaw, then it runs again', async () => {
  // Writes the time every 10 ms while it runs (one clock: this machine's).
  const child = spawn(process.execPath, ['-e', 'setInterval(() => process.stdout.write(`${Date.now()}\\n`), 10)'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ticks: number[] = [];
  let partial = '';
  child.stdout.on('data', (d: Buffer) => {
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop() ?? '';
    ticks.push(...lines.map(Number));
  });
  try {
    await waitFor('the child ticks', 10_000, () => ({ ok: ticks.length > 0, seen: { ticks: ticks.length } }));
    const pid = child.pid as number;
    expect(threadStates(pid).length).toBeGreaterThan(1);
    await freeze(pid);
    const frozenAt = Date.now();
    expect(threadStates(pid).join('')).toMatch(/^T+$/);
    await new Promise((r) => setTimeout(r, 300));
    const thawedAt = Date.now();
    thaw(pid);
    await waitFor('the child ticks again', 10_000, () => ({ ok: (ticks.at(-1) ?? 0) > thawedAt, seen: { last: ticks.at(-1), thawedAt, states: threadStates(pid).join('') } }));
    // Judged by when each line was written, not when it was read: a loaded machine may
    // deliver lines written before the stop late.
    expect(ticks.filter((at) => at > frozenAt && at < thawedAt)).toEqual([]);
  } finally {
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
});

it('freeze names a process that never started', async () => {
  await expect(freeze(undefined)).rejects.toThrow(/no pid/);
});
