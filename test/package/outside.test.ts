// The packages as another repository gets them. The workspaces are built and packed
// (`npm pack`, `npm pack -w proto -w client -w daemons`); a fresh project in a temporary
// directory outside the checkout (test/package/outside-daemon: its own package.json,
// TypeScript strict with module NodeNext, declarations of the packages checked too)
// installs the four tarballs, type-checks a daemon written against the documented API
// (docs/daemons.md, docs/client.md), runs it against a replica started from the packed
// sf-database, and runs its own node:test suite through sf-database/testing. Nothing there can reach the checkout: an import
// that resolves only inside the repository fails here.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplicaProcess } from '../../harness/replica.js';
import { createTestDatabase, dropTestDatabase, mariadbUrl } from '../helpers/tier.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURE = join(ROOT, 'test', 'package', 'outside-daemon');

interface Ran {
  code: number | null;
  out: string;
}

/** Runs a command to its end (at most `timeoutMs`), with its output for the failure message. */
function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}, timeoutMs = 240_000): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, out });
    });
  });
}

async function must(cmd: string, args: string[], cwd: string, env?: Record<string, string>): Promise<string> {
  const r = await run(cmd, args, cwd, env);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${r.code}:\n${r.out.slice(-4000)}`);
  return r.out;
}

/** The version of a package the checkout has installed (the same tools, from npm's cache). */
const installed = (name: string): string => (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

let work = '';
let project = '';

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'sfdb-outside-'));
  const packs = join(work, 'packs');
  project = join(work, 'daemon');
  await must('npm', ['run', '--silent', 'build'], ROOT);
  mkdirSync(packs); // npm pack wants its destination to exist
  await must('npm', ['pack', '--silent', '--pack-destination', packs], ROOT);
  await must('npm', ['pack', '--silent', '-w', 'proto', '-w', 'client', '-w', 'daemons', '--pack-destination', packs], ROOT);
  const tarballs = readdirSync(packs).filter((f) => f.endsWith('.tgz')).sort();
  cpSync(FIXTURE, project, { recursive: true });
  cpSync(join(project, 'package.template.json'), join(project, 'package.json'));
  cpSync(join(project, 'tsconfig.template.json'), join(project, 'tsconfig.json'));
  rmSync(join(project, 'package.template.json'));
  rmSync(join(project, 'tsconfig.template.json'));
  const tgz = (prefix: string): string => {
    const f = tarballs.find((t) => t.startsWith(prefix));
    if (!f) throw new Error(`no ${prefix}*.tgz among ${tarballs.join(', ')}`);
    return join(packs, f);
  };
  // The daemon's dependencies: the client and the framework (and the contract they pull);
  // the tier only as a development dependency, for sf-database/testing.
  await must('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tgz('sfdb-proto-'), tgz('sfdb-client-'), tgz('sfdb-daemon-')], project);
  await must(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-dev', tgz('sf-database-'), `typescript@${installed('typescript')}`, `@types/node@${installed('@types/node')}`],
    project,
  );
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A package's dependencies (not dev), by name, as npm installed them in `project`. */
function dependencyClosure(roots: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string, from: string): void => {
    // Node's lookup: node_modules of `from`, then of each directory above it in the project.
    for (let dir = from; dir.startsWith(project); dir = dirname(dir)) {
      const manifest = join(dir, 'node_modules', name, 'package.json');
      if (!existsSync(manifest)) continue;
      const key = `${name}@${dirname(manifest)}`;
      if (seen.has(key)) return;
      seen.add(key);
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
      for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) visit(dep, dirname(manifest));
      return;
    }
  };
  for (const r of roots) visit(r, project);
  return new Set([...seen].map((k) => k.slice(0, k.indexOf('@', 1))));
}

describe('the packages, from outside the repository', () => {
  it('install as a daemon links them: the client and the framework pull no mysql2, no tier, no Grafana SDK', () => {
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['@sfdb/client', '@sfdb/daemon', '@sfdb/proto']);
    const closure = dependencyClosure(Object.keys(pkg.dependencies));
    expect(closure).toContain('@grpc/grpc-js');
    for (const absent of ['mysql2', 'sf-database', '@grafana/grafana-foundation-sdk', '@grpc/reflection', 'grpc-health-check', 'vitest', 'tsx']) {
      expect(closure.has(absent), `${absent} in a daemon's install: ${[...closure].sort().join(', ')}`).toBe(false);
    }
    // The contract ships its .proto files, the service and every family it imports, found
    // from the installed package itself.
    const shipped = readdirSync(join(project, 'node_modules', '@sfdb', 'proto', 'sfdb', 'v1')).sort();
    expect(shipped).toEqual(readdirSync(join(ROOT, 'proto', 'sfdb', 'v1')).sort());
  });

  it("type-checks a daemon written against the documented API: strict, NodeNext, the packages' declarations included", async () => {
    await must('npx', ['tsc', '-p', '.'], project);
    expect(existsSync(join(project, 'dist', 'src', 'main.js'))).toBe(true);
  });

  it('runs it against a replica started from the packed sf-database', async () => {
    const database = await createTestDatabase();
    const tier = new ReplicaProcess({
      id: 'outside-1',
      databaseUrl: mariadbUrl(database),
      installed: { bin: join(project, 'node_modules', '.bin', 'sf-database'), cwd: project },
      args: ['serve'],
    });
    try {
      await tier.ready(60_000);
      const r = await run('node', ['dist/src/main.js'], project, { SFDB_TARGETS: tier.grpcAddress }, 60_000);
      expect(r.code, r.out).toBe(0);
      expect(r.out).toMatch(/^resolved vda on [0-9a-f-]{36}; stopped \(requested\)$/m);
    } finally {
      tier.kill('SIGTERM');
      expect((await tier.exited).code, tier.stderr()).toBe(0);
      await dropTestDatabase(database);
    }
  });

  it("runs the project's own node:test suite through sf-database/testing", async () => {
    const r = await run('npm', ['test'], project, {}, 120_000);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/^# pass 3$/m);
    expect(r.out).toMatch(/^# fail 0$/m);
  });

  it('ships sf-daemon in @sfdb/daemon and sf-ctl and sf-database in sf-database, runnable from the install, each with --help', async () => {
    const daemon = await run(join(project, 'node_modules', '.bin', 'sf-daemon'), [], project, {}, 30_000);
    expect(daemon.code, daemon.out).toBe(2);
    expect(daemon.out).toContain('usage: sf-daemon --daemon');
    const ctl = await run(join(project, 'node_modules', '.bin', 'sf-ctl'), ['--help'], project, {}, 30_000);
    expect(ctl.out).toMatch(/sf-ctl/);
    // Each package ships its README (what it is, install, the shortest example).
    for (const pkg of ['@sfdb/proto', '@sfdb/client', '@sfdb/daemon']) {
      expect(readFileSync(join(project, 'node_modules', pkg, 'README.md'), 'utf8'), pkg).toMatch(/## The shortest working example/);
    }
    // --help on every binary: usage on stdout, exit 0.
    const daemonHelp = await run(join(project, 'node_modules', '.bin', 'sf-daemon'), ['--help'], project, {}, 30_000);
    expect(daemonHelp.code, daemonHelp.out).toBe(0);
    expect(daemonHelp.out).toContain('usage: sf-daemon --daemon');
    const tierHelp = await run(join(project, 'node_modules', '.bin', 'sf-database'), ['--help'], project, {}, 30_000);
    expect(tierHelp.code, tierHelp.out).toBe(0);
    expect(tierHelp.out).toContain('usage: sf-database [serve]');
    expect(tierHelp.out).toContain('--database-url');
  });
});
