// sf-ctl as the operator runs it: a child process (`node --import tsx ops/ctl/main.ts`),
// with only the environment the test gives it (and the harness's: PATH, HOME).
import { childEnv, spawnTs } from '../../harness/children.js';

export interface CtlRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs sf-ctl; `onStderr` sees stderr as it grows. */
export function runCtl(args: string[], opts: { env?: Record<string, string>; onStderr?: (text: string) => void } = {}): Promise<CtlRun> {
  const proc = spawnTs('ops/ctl/main.ts', args, { env: childEnv(opts.env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
    opts.onStderr?.(stderr);
  });
  return new Promise((resolve) => proc.once('close', (code) => resolve({ code, stdout, stderr })));
}
