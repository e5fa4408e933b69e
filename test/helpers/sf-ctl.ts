// sf-ctl as the operator runs it: a child process (`node --import tsx ops/ctl/main.ts`),
// with only the environment the test gives it (and the harness's: PATH, HOME).
import { runTs } from '../../harness/children.js';
import type { Ran } from '../../harness/children.js';

export type CtlRun = Ran;

/** Runs sf-ctl; `onStderr` sees stderr as it grows. */
export function runCtl(args: string[], opts: { env?: Record<string, string>; onStderr?: (text: string) => void } = {}): Promise<CtlRun> {
  return runTs('ops/ctl/main.ts', args, opts);
}
