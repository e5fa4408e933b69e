import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DAEMON_SETTINGS, daemonSettings } from '../../daemons/settings.js';
import { SETTING_ENV } from '../../daemons/settings.js';

describe('daemon settings', () => {
  it('default to the documented intervals', () => {
    expect(daemonSettings({})).toEqual(DEFAULT_DAEMON_SETTINGS);
    expect(DEFAULT_DAEMON_SETTINGS).toMatchObject({ idleTickMs: 200, daemonStatePollMs: 2000, daemonStatePollMaxMs: 60_000, dequeueBackoffMs: [200, 400, 800, 1600, 2000] });
  });

  it('read SFDB_* and refuse bad values with the variable named', () => {
    expect(daemonSettings({ SFDB_DEQUEUE_BACKOFF_MS: '100,300', SFDB_QUEUE_WORKERS: '9' })).toMatchObject({ dequeueBackoffMs: [100, 300], queueWorkers: 9 });
    expect(() => daemonSettings({ SFDB_QUEUE_WORKERS: 'many' })).toThrow(/SFDB_QUEUE_WORKERS/);
    expect(() => daemonSettings({ SFDB_DEQUEUE_BACKOFF_MS: '100,,300' })).toThrow(/SFDB_DEQUEUE_BACKOFF_MS/);
    expect(() => daemonSettings({ SFDB_IDLE_TICK_MS: '5000' })).toThrow(/SFDB_IDLE_TICK_MS/);
    expect(daemonSettings({ SFDB_LOG_LEVEL: 'Silent' }).logLevel).toBe('silent');
    expect(() => daemonSettings({ SFDB_LOG_LEVEL: 'quiet' })).toThrow(/SFDB_LOG_LEVEL must be one of silent/);
  });

  it('are all named in the daemon guide (docs/daemons.md)', () => {
    const guide = readFileSync('docs/daemons.md', 'utf8');
    for (const env of Object.values(SETTING_ENV)) expect(guide, env).toContain(`\`${env}\``);
  });
});
