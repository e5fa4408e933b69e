// A fresh machine: when `npm start` finds no mariadbd for its embedded default, it installs
// Debian's mariadb-server itself if it can (root, apt-get present), saying so, and keeps
// the package's own MariaDB service from starting (a policy-rc.d that refuses every
// service start, in place only for the install). Otherwise it stops with the one command
// to run. Everything it touches is injectable, so the tests never touch the machine.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { findBinary } from './mariadb.js';

export const INSTALL_COMMAND = 'apt-get install -y mariadb-server';

export class MariaDbInstallError extends Error {
  override name = 'MariaDbInstallError';
}

export interface InstallHost {
  isRoot: boolean;
  /** apt-get's path, or undefined when there is none. */
  aptGet: string | undefined;
  /** invoke-rc.d's policy hook (Debian: /usr/sbin/policy-rc.d). */
  policyPath: string;
  /** Runs a command with inherited output; resolves with its exit code. */
  run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number>;
  say(message: string): void;
}

export function systemHost(say: (message: string) => void): InstallHost {
  return {
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
    aptGet: findBinary('apt-get'),
    policyPath: '/usr/sbin/policy-rc.d',
    run: (command, args, env) =>
      new Promise((resolve, reject) => {
        const child = spawn(command, args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
        child.once('error', reject);
        child.once('exit', (code) => resolve(code ?? 1));
      }),
    say,
  };
}

// Exit status 101 tells invoke-rc.d (and deb-systemd-invoke) "action forbidden by policy".
const DENY_ALL_SERVICES = '#!/bin/sh\n# sf-database: no service starts while packages are installed\nexit 101\n';

/**
 * Installs Debian `packages` with apt-get (root, apt-get present: the caller checked),
 * with every service start refused for the install; answers apt-get install's exit code.
 */
export async function aptInstall(host: InstallHost & { aptGet: string }, packages: readonly string[]): Promise<number> {
  // Someone else's policy stays as it is (and decides); ours is removed after the install.
  const ours = !existsSync(host.policyPath);
  if (ours) {
    writeFileSync(host.policyPath, DENY_ALL_SERVICES);
    chmodSync(host.policyPath, 0o755);
  }
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const updated = await host.run(host.aptGet, ['update', '-qq'], env);
    if (updated !== 0) host.say(`apt-get update exited ${updated}; trying the install with the package lists there are`);
    return await host.run(host.aptGet, ['install', '-y', '-qq', ...packages], env);
  } finally {
    if (ours) rmSync(host.policyPath, { force: true });
  }
}

/** Installs mariadb-server, or throws MariaDbInstallError naming the one command to run. */
export async function installMariaDb(host: InstallHost): Promise<void> {
  const aptGet = host.aptGet;
  if (!aptGet) {
    throw new MariaDbInstallError("mariadbd not found and there is no apt-get here: install MariaDB's server (mariadbd, mariadb-install-db), or set SFDB_DATABASE_URL");
  }
  if (!host.isRoot) {
    throw new MariaDbInstallError(`mariadbd not found: run \`sudo ${INSTALL_COMMAND}\` once (or set SFDB_DATABASE_URL)`);
  }
  host.say(`mariadbd not found: installing Debian's mariadb-server (${INSTALL_COMMAND}); the machine's own MariaDB service is kept from starting`);
  const installed = await aptInstall({ ...host, aptGet }, ['mariadb-server']);
  if (installed !== 0) throw new MariaDbInstallError(`\`${INSTALL_COMMAND}\` exited ${installed}; run it yourself to see why (or set SFDB_DATABASE_URL)`);
  host.say('mariadb-server installed');
}
