// One way to read a setting's value on every side: the tier (server/config.ts), the
// client (client/config.ts) and the daemons (daemons/settings.ts) take the same words
// (proto/runtime/env.ts) and agree on what each means — above all SFDB_CHANGE_FEED=off (the
// client's cache feed) and SFDB_DAEMON_FEED=off (the daemons' feed mode) both mean off.
import { describe, expect, it } from 'vitest';
import { resolveCacheSettings, resolveClientOptions } from '../../client/config.js';
import { DaemonSettingsError, daemonSettings } from '../../daemons/settings.js';
import { OFF_WORDS, ON_WORDS, parseInteger, parseIntegerList, parseOnOff } from '../../proto/runtime/env.js';
import { ConfigError, parseConfig } from '../../server/config.js';

/** Each side's reading of one on/off word, through a setting whose default is on. */
const readers: Record<string, (word: string) => boolean> = {
  'client SFDB_CHANGE_FEED': (w) => resolveClientOptions({}, { SFDB_CHANGE_FEED: w }).feed,
  'daemons SFDB_DAEMON_FEED': (w) => daemonSettings({ SFDB_DAEMON_FEED: w }).feed,
  'tier SFDB_CHANGEFEED_POKES': (w) => parseConfig({ SFDB_CHANGEFEED_POKES: w }, []).changefeedPokes,
  'tier SFDB_ADMIN': (w) => parseConfig({ SFDB_ADMIN: w }, []).admin,
};

describe('on/off words', () => {
  const variants = (w: string): string[] => [w, w.toUpperCase(), ` ${w} `];

  it('every side reads each word the same way', () => {
    for (const [side, read] of Object.entries(readers)) {
      for (const word of OFF_WORDS.flatMap(variants)) expect(read(word), `${side}=${JSON.stringify(word)}`).toBe(false);
      for (const word of ON_WORDS.flatMap(variants)) expect(read(word), `${side}=${JSON.stringify(word)}`).toBe(true);
      // Blank is unset: the default (on for all four).
      expect(read('  '), `${side} blank`).toBe(true);
    }
  });

  it('every side refuses any other word, naming the setting', () => {
    expect(() => readers['client SFDB_CHANGE_FEED']?.('disabled')).toThrow(/SFDB_CHANGE_FEED: "disabled" is neither on .* nor off/);
    expect(() => readers['daemons SFDB_DAEMON_FEED']?.('disabled')).toThrow(DaemonSettingsError);
    expect(() => readers['daemons SFDB_DAEMON_FEED']?.('disabled')).toThrow(/SFDB_DAEMON_FEED: "disabled"/);
    expect(() => readers['tier SFDB_CHANGEFEED_POKES']?.('disabled')).toThrow(ConfigError);
    expect(() => readers['tier SFDB_CHANGEFEED_POKES']?.('disabled')).toThrow(/SFDB_CHANGEFEED_POKES \/ --changefeed-pokes: "disabled"/);
    expect(() => parseOnOff('X', 'enabled')).toThrow(/^X: "enabled"/);
  });
});

describe('integers and durations', () => {
  it('every side takes digits with spaces around, and refuses units and fractions', () => {
    expect(resolveClientOptions({}, { SFDB_DEADLINE_MS: ' 250 ' }).deadlineMs).toBe(250);
    expect(daemonSettings({ SFDB_CLAIM_LEASE_MS: ' 250 ' }).claimLeaseMs).toBe(250);
    expect(parseConfig({ SFDB_DRAIN_GRACE_MS: ' 250 ' }, []).drainGraceMs).toBe(250);
    for (const bad of ['5s', '1e3', '2.5', '0x10']) {
      expect(() => resolveClientOptions({}, { SFDB_DEADLINE_MS: bad }), bad).toThrow(/SFDB_DEADLINE_MS: .* is not an integer/);
      expect(() => daemonSettings({ SFDB_CLAIM_LEASE_MS: bad }), bad).toThrow(/SFDB_CLAIM_LEASE_MS: .* is not an integer/);
      expect(() => parseConfig({ SFDB_DRAIN_GRACE_MS: bad }, []), bad).toThrow(/SFDB_DRAIN_GRACE_MS .* is not an integer/);
    }
  });

  it('blank is unset on every side: the default', () => {
    expect(resolveClientOptions({}, { SFDB_DEADLINE_MS: ' ', SFDB_TARGETS: '' }).deadlineMs).toBe(5000);
    expect(resolveCacheSettings({ SFDB_CACHE_CAPACITY: ' ' }).capacity).toBe(20_000);
    expect(daemonSettings({ SFDB_CLAIM_LEASE_MS: ' ' }).claimLeaseMs).toBe(60_000);
    expect(parseConfig({ SFDB_DRAIN_GRACE_MS: ' ' }, []).drainGraceMs).toBe(10_000);
  });

  it('ranges and lists say what is wrong', () => {
    expect(() => parseInteger('N', '0', { min: 1 })).toThrow('N: 0 is below 1');
    expect(() => parseInteger('N', '9', { max: 8 })).toThrow('N: 9 is above 8');
    expect(() => parseInteger('N', '9', { min: 1, max: 8 })).toThrow('N: 9 is outside 1..8');
    expect(() => parseInteger('N', '99999999999999999999')).toThrow(/is not an integer/);
    expect(parseInteger('N', '-3')).toBe(-3);
    expect(parseIntegerList('L', '1, 2 ,3', { min: 1 })).toEqual([1, 2, 3]);
    expect(() => parseIntegerList('L', '1,,3')).toThrow('L: "" is not an integer');
  });
});
