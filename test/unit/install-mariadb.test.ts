// `npm start` on a fresh machine: root with apt-get installs mariadb-server while no
// service may start; anyone else gets the one command to run. A fake host: nothing here
// touches the machine's packages or its /usr/sbin/policy-rc.d.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MariaDbInstallError, installMariaDb } from '../../server/embedded/install.js';
import type { InstallHost } from '../../server/embedded/install.js';

interface Ran {
  command: string;
  args: string[];
  frontend: string | undefined;
  /** The policy hook as it was while the command ran. */
  policy: string | undefined;
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function host(overrides: Partial<InstallHost> = {}, exitCodes: number[] = []): { host: InstallHost; ran: Ran[]; said: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'sfdb-install-'));
  dirs.push(dir);
  const ran: Ran[] = [];
  const said: string[] = [];
  const policyPath = join(dir, 'policy-rc.d');
  const h: InstallHost = {
    isRoot: true,
    aptGet: '/usr/bin/apt-get',
    policyPath,
    run: async (command, args, env) => {
      ran.push({ command, args, frontend: env['DEBIAN_FRONTEND'], policy: existsSync(policyPath) ? readFileSync(policyPath, 'utf8') : undefined });
      return exitCodes.shift() ?? 0;
    },
    say: (m) => said.push(m),
    ...overrides,
  };
  return { host: h, ran, said };
}

describe('installing mariadb-server for the embedded default', () => {
  it('as root with apt-get: says so, installs non-interactively with every service start refused, then removes its policy', async () => {
    const { host: h, ran, said } = host();
    await installMariaDb(h);
    expect(ran.map((r) => [r.command, ...r.args])).toEqual([
      ['/usr/bin/apt-get', 'update', '-qq'],
      ['/usr/bin/apt-get', 'install', '-y', '-qq', 'mariadb-server'],
    ]);
    for (const r of ran) {
      expect(r.frontend).toBe('noninteractive');
      expect(r.policy).toMatch(/^#!\/bin\/sh\n[\s\S]*\nexit 101\n$/);
    }
    expect(said[0]).toMatch(/installing Debian's mariadb-server .*service is kept from starting/);
    expect(existsSync(h.policyPath)).toBe(false);
  });

  it('makes its policy hook executable while it is in place', async () => {
    let mode = 0;
    const { host: h } = host();
    const run = h.run;
    h.run = async (command, args, env) => {
      mode = statSync(h.policyPath).mode & 0o777;
      return run(command, args, env);
    };
    await installMariaDb(h);
    expect(mode).toBe(0o755);
  });

  it("leaves a policy hook it did not write as it was", async () => {
    const { host: h, ran } = host();
    writeFileSync(h.policyPath, '#!/bin/sh\nexit 0\n');
    await installMariaDb(h);
    expect(ran[1]?.policy).toBe('#!/bin/sh\nexit 0\n');
    expect(readFileSync(h.policyPath, 'utf8')).toBe('#!/bin/sh\nexit 0\n');
  });

  it('a failed install names the command to run and still removes its policy', async () => {
    const { host: h } = host({}, [0, 100]);
    await expect(installMariaDb(h)).rejects.toThrow(/`apt-get install -y mariadb-server` exited 100; run it yourself/);
    expect(existsSync(h.policyPath)).toBe(false);
  });

  it('not root: runs nothing and says the one command to run', async () => {
    const { host: h, ran } = host({ isRoot: false });
    const err = await installMariaDb(h).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MariaDbInstallError);
    expect((err as Error).message).toBe('mariadbd not found: run `sudo apt-get install -y mariadb-server` once (or set SFDB_DATABASE_URL)');
    expect(ran).toEqual([]);
    expect(existsSync(h.policyPath)).toBe(false);
  });

  it('no apt-get: runs nothing and says what is needed', async () => {
    const { host: h, ran } = host({ aptGet: undefined });
    await expect(installMariaDb(h)).rejects.toThrow(/no apt-get here: install MariaDB's server .* or set SFDB_DATABASE_URL/);
    expect(ran).toEqual([]);
  });
});
