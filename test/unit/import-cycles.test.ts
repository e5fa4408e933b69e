// The lint forbids import cycles — type-only imports included — and keeps proto/ and the
// server's layers apart. Files planted in the tree are linted with the project's own
// eslint.config.js; only its type-aware parsing is left out (these rules do not use it,
// and it would load the whole program), and only the two rules under test run.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const RULES = new Set(['sfdb/no-import-cycle', 'import-x/no-restricted-paths', 'no-restricted-imports']);
const TAG = `lint-fixture-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
const PLANT_UNDER = ['test/unit', 'proto', 'server/db', 'server/grpc/grpc-js', 'client', 'daemons', 'ops'] as const;
const plantedDirs = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// What a killed run left would fail `npm run check` (its cycles are real files): removed
// here, unless the run that planted it is still going.
beforeAll(() => {
  for (const under of PLANT_UNDER) {
    for (const entry of readdirSync(join(ROOT, under))) {
      const pid = /^lint-fixture-(\d+)-/.exec(entry)?.[1];
      if (pid !== undefined && !isAlive(Number(pid))) rmSync(join(ROOT, under, entry), { recursive: true, force: true });
    }
  }
});

const eslint = new ESLint({
  cwd: ROOT,
  ruleFilter: ({ ruleId }) => RULES.has(ruleId),
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});

/** Writes `files` (path relative to `under`: text) into a fresh folder of the tree; answers their absolute paths. */
function plant(under: (typeof PLANT_UNDER)[number], files: Record<string, string>): string[] {
  const dir = join(ROOT, under, TAG);
  plantedDirs.add(dir);
  return Object.entries(files).map(([name, text]) => {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  });
}

/** Each planted file (by name) → "rule: message" of what the lint reported (parse errors too). */
async function lint(paths: string[]): Promise<Record<string, string[]>> {
  const results = await eslint.lintFiles(paths);
  return Object.fromEntries(
    results.map((r) => [basename(r.filePath), r.messages.map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`)]),
  );
}

afterAll(() => {
  for (const dir of plantedDirs) rmSync(dir, { recursive: true, force: true });
});

describe('the lint: import cycles', () => {
  it('reports a circle closed by `import type` on both of its files, naming the route', async () => {
    const paths = plant('test/unit', {
      'a.ts': "import type { B } from './b.js';\nexport interface A { b?: B }\n",
      'b.ts': "import type { A } from './a.js';\nexport interface B { a?: A }\n",
    });
    const found = await lint(paths);
    expect(found['a.ts']).toEqual([expect.stringMatching(/^sfdb\/no-import-cycle: Import cycle .*a\.ts → .*b\.ts → .*a\.ts/)]);
    expect(found['b.ts']).toEqual([expect.stringMatching(/^sfdb\/no-import-cycle: Import cycle .*b\.ts → .*a\.ts → .*b\.ts/)]);
  });

  it('follows inline type specifiers, type re-exports and import() types through a longer circle', async () => {
    const paths = plant('test/unit', {
      'c1.ts': "import { type C2 } from './c2.js';\nexport type C1 = C2 | 1;\n",
      'c2.ts': "export type { C3 as C2 } from './c3.js';\n",
      'c3.ts': "export type C3 = import('./c1.js').C1 | 3;\n",
    });
    const found = await lint(paths);
    for (const file of ['c1.ts', 'c2.ts', 'c3.ts']) expect(found[file], file).toEqual([expect.stringMatching(/^sfdb\/no-import-cycle: /)]);
  });

  it('reports a circle of value imports', async () => {
    const paths = plant('test/unit', {
      'v1.ts': "import { v2 } from './v2.js';\nexport const v1 = (): number => v2() + 1;\n",
      'v2.ts': "import { v1 } from './v1.js';\nexport const v2 = (): number => v1() - 1;\n",
    });
    const found = await lint(paths);
    expect(found['v1.ts']).toEqual([expect.stringMatching(/^sfdb\/no-import-cycle: /)]);
    expect(found['v2.ts']).toEqual([expect.stringMatching(/^sfdb\/no-import-cycle: /)]);
  });

  it('passes imports that lead downward only, type-only ones included', async () => {
    const paths = plant('test/unit', {
      'top.ts': "import type { Mid } from './mid.js';\nimport { low } from './low.js';\nexport const top = (m: Mid): number => m.n + low;\n",
      'mid.ts': "import type { Low } from './low.js';\nexport interface Mid { n: Low }\n",
      'low.ts': 'export type Low = number;\nexport const low = 1;\n',
    });
    expect(await lint(paths)).toEqual({ 'top.ts': [], 'mid.ts': [], 'low.ts': [] });
  });
});

describe('the lint: who touches mysql2', () => {
  it('refuses mysql2 outside server/ (client, daemons, ops, proto) and allows it in server/', async () => {
    const text = "import mysql from 'mysql2/promise';\nimport type { Pool } from 'mysql2';\nexport const m = mysql;\nexport type P = Pool;\n";
    const outside = [...plant('client', { 'c.ts': text }), ...plant('daemons', { 'd.ts': text }), ...plant('ops', { 'o.ts': text }), ...plant('proto', { 'p.ts': text })];
    const inside = plant('server/db', { 's.ts': text });
    const reported = await lint([...outside, ...inside]);
    for (const name of ['c.ts', 'd.ts', 'o.ts', 'p.ts']) {
      expect(reported[name]?.filter((m) => m.startsWith('no-restricted-imports')), name).toHaveLength(2);
    }
    expect(reported['s.ts']).toEqual([]);
  });
});

describe('the lint: restricted paths', () => {
  it('proto/ imports nothing of server/, client/ or daemons/, type-only imports included', async () => {
    const paths = plant('proto', {
      'bad.ts': [
        "import type { Sql } from '../../server/db/sql.js';",
        "import type { Clock } from '../../client/index.js';",
        "import { daemonSettings } from '../../daemons/settings.js';",
        "import { topics } from '../topics.js';",
        'export type T = [Sql, Clock, typeof daemonSettings, typeof topics];',
        '',
      ].join('\n'),
    });
    const found = await lint(paths);
    // Each is also a relative path into another folder (no-restricted-imports, next test).
    expect(found['bad.ts']?.filter((m) => m.startsWith('import-x/no-restricted-paths'))).toEqual(
      ['server/db/sql.js', 'client/index.js', 'daemons/settings.js'].map((p) => expect.stringContaining(`import-x/no-restricted-paths: Unexpected path "../../${p}"`)),
    );
  });

  it('a package reaches another by its name, never by a relative path an installed copy lacks, and only the ones it depends on', async () => {
    const paths = plant('client', {
      'reach.ts': [
        "import { topics } from '../../proto/topics.js';",
        "import { systemClock } from '@sfdb/proto/runtime/clock';",
        "import { Daemon } from '@sfdb/daemon';",
        'export const all = [topics, systemClock, Daemon];',
        '',
      ].join('\n'),
    });
    const found = await lint(paths);
    expect(found['reach.ts']).toEqual([
      expect.stringContaining("no-restricted-imports: '../../proto/topics.js' import is restricted from being used by a pattern. client/ reaches that folder by its package name"),
      expect.stringContaining("no-restricted-imports: '@sfdb/daemon' import is restricted from being used. client/ does not depend on @sfdb/daemon"),
    ]);
  });

  it('server/db imports none of the layers above it', async () => {
    const paths = plant('server/db', {
      'up.ts': "import type { CallContext } from '../../rpc/context.js';\nimport type { Metrics } from '../../metrics.js';\nexport type T = [CallContext, Metrics];\n",
    });
    const found = await lint(paths);
    expect(found['up.ts']).toEqual([expect.stringContaining('import-x/no-restricted-paths: Unexpected path "../../rpc/context.js"')]);
  });
});

describe('the lint: the grpc-js boundary', () => {
  it("refuses grpc-js's internals (its build/ tree) outside server/grpc/grpc-js/, tests included, and allows them in it", async () => {
    const text = "import { BaseServerInterceptingCall } from '@grpc/grpc-js/build/src/server-interceptors.js';\nexport const b = BaseServerInterceptingCall;\n";
    const outside = [...plant('server/db', { 's.ts': text }), ...plant('client', { 'c.ts': text }), ...plant('test/unit', { 't.ts': text })];
    const inside = plant('server/grpc/grpc-js', { 'g.ts': text });
    const reported = await lint([...outside, ...inside]);
    for (const name of ['s.ts', 'c.ts', 't.ts']) {
      expect(reported[name], name).toEqual([expect.stringContaining("grpc-js's internals are reached only in server/grpc/grpc-js/")]);
    }
    expect(reported['g.ts']).toEqual([]);
  });
});
