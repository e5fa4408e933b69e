// Every type a public function, class or type of a package uses is one its author can name:
// exported by the package (or by a package it depends on). Each package's entry points are
// read from its package.json `exports`; the walk is test/helpers/public-types.ts. A planted
// package shows the check fails, and says where, when a used type is not exported.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { missingExports } from '../helpers/public-types.js';
import type { PackageSurface } from '../helpers/public-types.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Manifest {
  name: string;
  exports: Record<string, string | { types: string }>;
  dependencies?: Record<string, string>;
}

/** Every .ts under `dir` (a `./*` export names each of them). */
function allSources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.startsWith('dist') && !f.includes('node_modules'))
    .map((f) => join(dir, f));
}

/** A workspace's (or the root's) public surface, from its package.json: `./dist/x.d.ts` is built from `./x.ts`. */
function surface(dir: string, names: Set<string>): PackageSurface {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
  const entries = Object.entries(manifest.exports)
    .filter(([key]) => key !== './package.json')
    .flatMap(([, target]) => {
      const types = typeof target === 'string' ? target : target.types;
      if (types.includes('*')) return allSources(dir);
      return [join(dir, types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts'))];
    });
  return { name: manifest.name, entries, dependsOn: Object.keys(manifest.dependencies ?? {}).filter((n) => names.has(n)) };
}

const format = (m: { package: string; type: string; declaredIn: string; from: string }): string => `${m.package}: ${m.type} (${m.declaredIn}), used by ${m.from}`;

describe('the packages export every type their public declarations use', () => {
  it('@sfdb/proto, @sfdb/client, @sfdb/daemon and sf-database/testing', () => {
    const names = new Set(['@sfdb/proto', '@sfdb/client', '@sfdb/daemon']);
    const packages = ['proto', 'client', 'daemons', '.'].map((d) => surface(join(ROOT, d), names));
    expect(packages.map((p) => p.name)).toEqual(['@sfdb/proto', '@sfdb/client', '@sfdb/daemon', 'sf-database']);
    // proto/gen/ is written by proto-loader-gen-types (npm run proto:gen): its one local
    // helper type (SubtypeConstructor, under ProtoGrpcType) is the generator's to export.
    const { missing, emitErrors, walked } = missingExports(ROOT, packages, (file) => file.startsWith('proto/gen/'));
    expect(emitErrors).toEqual([]);
    // The walk reached the surface (hundreds of declarations), not nothing.
    expect(walked).toBeGreaterThan(300);
    expect(missing.map(format)).toEqual([]);
  }, 180_000);

  it('fails for a type a public method returns that the package does not export (planted)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sfdb-exports-'));
    try {
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, types: [] } }));
      writeFileSync(join(dir, 'fence.ts'), 'export interface Fence { token: string }\nexport interface Hidden { why: string }\n');
      writeFileSync(
        join(dir, 'keeper.ts'),
        [
          "import type { Fence, Hidden } from './fence.js';",
          'interface Options { ttlMs: number; onLost?: (h: Hidden) => void }',
          'export class Keeper {',
          '  constructor(readonly options: Options) {}',
          '  fence(): Fence { return { token: "1" }; }',
          '  private secret(): Hidden { return { why: "" }; }',
          '}',
          '',
        ].join('\n'),
      );
      writeFileSync(join(dir, 'index.ts'), "export { Keeper } from './keeper.js';\nexport type { Hidden } from './fence.js';\n");
      const { missing } = missingExports(dir, [{ name: 'planted', entries: [join(dir, 'index.ts')] }]);
      // Fence (returned) and Options (the constructor's, kept as a property) are used and not exported; Hidden is exported.
      expect(missing.map(format).sort()).toEqual(['planted: Fence (fence.ts), used by Keeper.fence', 'planted: Options (keeper.ts), used by Keeper.options'].sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
