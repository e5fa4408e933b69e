// sf-daemon as a node runs it: a child process (`node --import tsx daemons/main.ts`) for
// one daemon of one node against `target`, with only the environment the test gives it
// (mTLS settings included), its output kept for the test to wait on.
import type { ChildProcess } from 'node:child_process';
import { childEnv, spawnTs } from '../../harness/children.js';

export interface SfDaemon {
  proc: ChildProcess;
  exited: Promise<{ code: number | null; at: number }>;
  stdout: () => string;
  stderr: () => string;
  /** Resolves once stdout has said `text` (an event the process reports, not a timed wait); fails at 30 s or when it exits. */
  says: (text: string) => Promise<void>;
  /** Resolves once it said it runs. */
  running: () => Promise<void>;
}

/** Starts sf-daemon; `children` collects the process for the test to kill at its end. */
export function sfDaemon(
  target: string,
  daemon: string,
  nodeUuid: string,
  opts: { env?: Record<string, string>; metricsPort?: number; children: ChildProcess[] },
): SfDaemon {
  const metrics = opts.metricsPort === undefined ? [] : ['--metrics-port', String(opts.metricsPort)];
  const proc = spawnTs('daemons/main.ts', ['--daemon', daemon, '--node', nodeUuid, ...metrics], {
    env: childEnv({ SFDB_TARGETS: target, ...opts.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  opts.children.push(proc);
  let out = '';
  let err = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => proc.once('exit', (code) => resolve({ code, at: Date.now() })));
  let gone = false;
  void exited.then(() => (gone = true));
  async function says(text: string): Promise<void> {
    for (const deadline = Date.now() + 30_000; !out.includes(text); ) {
      if (gone || Date.now() > deadline) throw new Error(`sf-daemon did not say "${text}"; stdout: ${out}\nstderr: ${err}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  return { proc, exited, stdout: () => out, stderr: () => err, says, running: () => says(' running for node ') };
}
