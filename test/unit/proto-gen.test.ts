// The committed generated types must equal what scripts/gen-proto.mjs makes now.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

it('proto/gen is up to date with proto/sfdb/v1/ (run npm run proto:gen)', () => {
  const out = mkdtempSync(join(tmpdir(), 'sfdb-gen-'));
  try {
    execFileSync(process.execPath, ['scripts/gen-proto.mjs', '--out', out], { stdio: 'pipe' });
    const committed = 'proto/gen';
    const fresh = files(out).map((f) => relative(out, f)).sort();
    expect(files(committed).map((f) => relative(committed, f)).sort()).toEqual(fresh);
    for (const f of fresh) {
      expect(readFileSync(join(committed, f), 'utf8'), f).toBe(readFileSync(join(out, f), 'utf8'));
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
