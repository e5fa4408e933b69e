import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, usageText } from '../../server/config.js';
import { SETTINGS } from '../../server/settings.js';
import { toTarget, resolveClientOptions } from '../../client/config.js';

describe('server config', () => {
  it('has the documented defaults', () => {
    const c = parseConfig({}, []);
    expect(c).toMatchObject({
      command: 'serve',
      databaseUrl: undefined,
      dataDir: '.data/mariadb',
      grpcHost: '127.0.0.1',
      grpcPort: 13005,
      httpPort: 13006,
      poolSize: 16,
      migrate: true,
      drainGraceMs: 10_000,
      maxConnectionAgeMs: 300_000,
    });
    expect(Object.isFrozen(c)).toBe(true);
    expect(c.callerDaemons.has('queues')).toBe(true);
  });

  it('takes flags over environment', () => {
    const c = parseConfig({ SFDB_GRPC_PORT: '1000', SFDB_POOL_SIZE: '3' }, ['--grpc-port', '2000', '--no-migrate', 'serve']);
    expect(c.grpcPort).toBe(2000);
    expect(c.poolSize).toBe(3);
    expect(c.migrate).toBe(false);
    expect(parseConfig({}, ['migrate']).command).toBe('migrate');
  });

  it('refuses bad values with the setting named', () => {
    expect(() => parseConfig({ SFDB_GRPC_PORT: 'abc' }, [])).toThrow(/SFDB_GRPC_PORT/);
    expect(() => parseConfig({ SFDB_POOL_SIZE: '0' }, [])).toThrow(/SFDB_POOL_SIZE.*outside/);
    expect(() => parseConfig({ SFDB_MIGRATE: 'maybe' }, [])).toThrow(ConfigError);
    expect(() => parseConfig({ SFDB_DATABASE_URL: 'postgres://x' }, [])).toThrow(/SFDB_DATABASE_URL/);
    expect(() => parseConfig({}, ['--no-such-flag'])).toThrow(ConfigError);
    expect(() => parseConfig({}, ['frobnicate'])).toThrow(/unknown command/);
  });

  it('--help names every command, every flag with its variable, and the exit codes', () => {
    const help = usageText();
    for (const command of ['[serve]', 'migrate', 'backup FILE', 'restore FILE --yes']) expect(help).toContain(`sf-database ${command}`);
    for (const s of Object.values(SETTINGS)) expect(help).toMatch(new RegExp(`--${s.flag} +${s.env} +\\S`));
    expect(help).toMatch(/exit codes: 0 stopped cleanly/);
  });

  it('takes backup FILE and restore FILE [--yes] [--bump N], and those flags with restore only', () => {
    expect(parseConfig({}, []).archive).toBeUndefined();
    expect(parseConfig({}, ['backup', '/tmp/b.sql']).archive).toEqual({ file: '/tmp/b.sql', confirmed: false, bump: 1_000_000_000n });
    expect(parseConfig({}, ['restore', 'b.sql', '--yes', '--bump', '5000']).archive).toEqual({ file: 'b.sql', confirmed: true, bump: 5000n });
    expect(parseConfig({}, ['restore', 'b.sql']).archive?.confirmed).toBe(false);
    for (const [argv, pattern] of [
      [['backup'], /backup takes one FILE/],
      [['backup', 'a', 'b'], /backup takes one FILE/],
      [['restore', 'a', '--bump', '0'], /--bump: "0" is not a whole number/],
      [['restore', 'a', '--bump', '1e9'], /--bump: "1e9"/],
      [['restore', 'a', '--bump', '1234567890123456789'], /--bump/],
      [['backup', 'a', '--yes'], /--yes applies to restore only/],
      [['serve', '--bump', '5'], /--bump applies to restore only/],
      [['migrate', 'extra'], /unexpected arguments: extra/],
    ] as const) {
      expect(() => parseConfig({}, [...argv]), argv.join(' ')).toThrow(pattern);
    }
  });

  it('are all in the configuration table (docs/configuration.md)', () => {
    const table = readFileSync('docs/configuration.md', 'utf8');
    for (const s of Object.values(SETTINGS)) {
      expect(table, s.env).toContain(`| \`${s.env}\` | \`--${s.flag}\``);
    }
  });

  it('needs --insecure to bind beyond loopback without TLS', () => {
    expect(() => parseConfig({ SFDB_GRPC_HOST: '0.0.0.0' }, [])).toThrow(/--insecure/);
    expect(parseConfig({ SFDB_GRPC_HOST: '0.0.0.0' }, ['--insecure']).grpcHost).toBe('0.0.0.0');
  });
});

describe('client config', () => {
  it('turns targets into one grpc-js target', () => {
    expect(toTarget('127.0.0.1:13005')).toBe('ipv4:127.0.0.1:13005');
    expect(toTarget(['127.0.0.1:1', '127.0.0.2:2'])).toBe('ipv4:127.0.0.1:1,127.0.0.2:2');
    expect(toTarget('db.example.com:13005')).toBe('dns:///db.example.com:13005');
    expect(toTarget('dns:///db.example.com:13005')).toBe('dns:///db.example.com:13005');
    expect(() => toTarget(['a.example.com:1', 'b.example.com:2'])).toThrow(/dns:\/\/\//);
  });

  it('fixes caller identity at construction and refuses a malformed node', () => {
    const o = resolveClientOptions({}, { SFDB_CALLER_DAEMON: 'queues', SFDB_CALLER_NODE: '00000000-0000-4000-8000-000000000001' });
    expect(o).toMatchObject({ callerDaemon: 'queues', deadlineMs: 5000, target: 'ipv4:127.0.0.1:13005' });
    expect(() => resolveClientOptions({ callerNode: 'node-1' }, {})).toThrow(/callerNode/);
  });

  it('refuses a caller daemon the tier would refuse (not a name, or over 64 characters)', () => {
    for (const daemon of ['Queues', 'qu\u00e9ues', 'queues ', 'x'.repeat(65), '-q']) {
      expect(() => resolveClientOptions({ callerDaemon: daemon }, {}), daemon).toThrow(/callerDaemon: .*lower-case letters/);
    }
    expect(resolveClientOptions({ callerDaemon: 'x'.repeat(64) }, {}).callerDaemon).toHaveLength(64);
    expect(resolveClientOptions({}, {}).callerDaemon).toBe('');
  });

  it('balances by p2c unless told round_robin, and refuses another policy', () => {
    expect(resolveClientOptions({}, {}).balance).toBe('p2c');
    expect(resolveClientOptions({}, { SFDB_BALANCE: 'round_robin' }).balance).toBe('round_robin');
    expect(resolveClientOptions({ balance: 'p2c' }, { SFDB_BALANCE: 'round_robin' }).balance).toBe('p2c');
    expect(() => resolveClientOptions({}, { SFDB_BALANCE: 'pick_first' })).toThrow(/SFDB_BALANCE: "pick_first"/);
    expect(() => resolveClientOptions({ balance: 'random' as 'p2c' }, {})).toThrow(/balance: "random"/);
  });
});
