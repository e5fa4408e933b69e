// Files rendered from code and committed (the dashboard JSON, the Prometheus rules): the
// one way their generators write them, or, with `--check`, say which are stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

function committed(file: string): string | undefined {
  try {
    return readFileSync(join(ROOT, file), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Writes each [file, text] (paths relative to the repository), or with `--check` in
 * `argv` writes nothing and exits 1 naming the stale files, `source` and `command`.
 */
export function writeOrCheck(files: readonly [string, string][], source: string, command: string, argv: readonly string[] = process.argv): void {
  if (argv.includes('--check')) {
    const stale = files.filter(([file, text]) => committed(file) !== text).map(([file]) => file);
    if (stale.length > 0) {
      console.error(`${stale.join(', ')} out of date with ${source}; run \`${command}\``);
      process.exit(1);
    }
    return;
  }
  for (const [file, text] of files) {
    writeFileSync(join(ROOT, file), text);
    console.log(`wrote ${file}`);
  }
}

/** A committed file's text, relative to the repository. */
export function readRepoFile(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}
