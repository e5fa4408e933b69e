// Where the package is (from source: the checkout; built: the directory above dist/), its
// version, and the files the admin view reads from it.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const NAME = 'sf-database';

function manifest(dir: string): { name?: string; version?: string } | undefined {
  const path = join(dir, 'package.json');
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as { name?: string; version?: string };
  } catch {
    return undefined;
  }
}

/** The nearest directory above this file whose package.json names sf-database. */
export function packageRoot(from: string = HERE): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (manifest(dir)?.name === NAME) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json of ${NAME} above ${from}`);
  }
}

/** The package's version ('unknown' when its package.json cannot be read). */
export function packageVersion(): string {
  try {
    return manifest(packageRoot())?.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The committed feed-mode budget of the package (ops/load-budget.json), or that path from the working directory. */
export function defaultBudgetPath(): string {
  try {
    return join(packageRoot(), 'ops', 'load-budget.json');
  } catch {
    return join('ops', 'load-budget.json');
  }
}
