// Files sf-ctl finds relative to itself, whether it runs from source (ops/ctl/*.ts under
// tsx) or built (dist/ops/ctl/*.js): the checkout's root, the committed budgets, the
// sf-database entry point.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUDGET_FILES } from '../budget.js';

const HERE = dirname(fileURLToPath(import.meta.url));

/** True when this module runs from TypeScript source (tsx), not from dist/. */
export function runningFromSource(): boolean {
  return import.meta.url.endsWith('.ts');
}

/** The checkout's root: the nearest directory above this file that holds the committed budget. */
export function repoRoot(from: string = HERE): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, BUDGET_FILES.feed))) return dir;
    if (dirname(dir) === dir) throw new Error(`cannot find ${BUDGET_FILES.feed} above ${from}`);
  }
}

/** `feed` and `anchor` name the committed budgets; anything else is a path (from the working directory). */
export function budgetPath(spec: string, cwd: string = process.cwd()): string {
  if (spec === 'feed' || spec === 'anchor') return join(repoRoot(), BUDGET_FILES[spec]);
  return resolve(cwd, spec);
}

/**
 * How to start sf-database: `node dist/server/main.js` beside a built sf-ctl, or
 * `node --import tsx server/main.ts` from source.
 */
export function sfDatabaseCommand(): { file: string; args: string[] } {
  if (runningFromSource()) {
    const main = join(HERE, '..', '..', 'server', 'main.ts');
    return { file: main, args: ['--import', import.meta.resolve('tsx'), main] };
  }
  const main = join(HERE, '..', '..', 'server', 'main.js');
  return { file: main, args: [main] };
}
