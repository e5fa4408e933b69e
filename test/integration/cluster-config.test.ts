import { describe, expect, it } from 'vitest';
import { Conflict, InvalidArgument } from '../../client/index.js';
import { useTestTier } from '../helpers/tier.js';

const { t, db } = useTestTier();

/** Each call's outcome: the version it wrote, or 'conflict'. */
async function outcomes(calls: (() => Promise<string>)[]): Promise<string[]> {
  return Promise.all(
    calls.map((call) =>
      call().then(
        (version) => version,
        (err: unknown) => {
          if (err instanceof Conflict) return 'conflict';
          throw err;
        },
      ),
    ),
  );
}

describe('cluster config', () => {
  it('reads and writes with versions: unconditional, only-if-absent, at-version', async () => {
    expect(await db.getClusterConfig('scheduler.policy')).toBeUndefined();

    expect(await db.setClusterConfig('scheduler.policy', { spread: true }, { expectedVersion: -1 })).toBe('1');
    const first = await db.getClusterConfig('scheduler.policy');
    expect(first).toMatchObject({ value: { spread: true }, version: '1' });
    expect(first?.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    await expect(db.setClusterConfig('scheduler.policy', { spread: false }, { expectedVersion: -1 })).rejects.toBeInstanceOf(Conflict);

    expect(await db.setClusterConfig('scheduler.policy', { spread: false })).toBe('2');
    expect(await db.setClusterConfig('scheduler.policy', { spread: false, weight: 3 }, { expectedVersion: '2' })).toBe('3');
    await expect(db.setClusterConfig('scheduler.policy', { lost: true }, { expectedVersion: 2 })).rejects.toBeInstanceOf(Conflict);
    await expect(db.setClusterConfig('scheduler.policy', { lost: true }, { expectedVersion: 4 })).rejects.toBeInstanceOf(Conflict);
    expect(await db.getClusterConfig('scheduler.policy')).toMatchObject({ value: { spread: false, weight: 3 }, version: '3' });

    // An expected version on an absent key is a Conflict, not a create.
    await expect(db.setClusterConfig('absent.key', 1, { expectedVersion: 1 })).rejects.toBeInstanceOf(Conflict);
    expect(await db.getClusterConfig('absent.key')).toBeUndefined();

    // Any JSON value, not only objects; the first unconditional write is version 1.
    expect(await db.setClusterConfig('limits:max-instances', 250)).toBe('1');
    expect(await db.setClusterConfig('motd', 'héllo 😀')).toBe('1');
    expect(await db.setClusterConfig('flags', [1, 'two', null])).toBe('1');
    expect((await db.getClusterConfig('limits:max-instances'))?.value).toBe(250);
    expect((await db.getClusterConfig('motd'))?.value).toBe('héllo 😀');
    expect((await db.getClusterConfig('flags'))?.value).toEqual([1, 'two', null]);
  });

  it('lets exactly one of racing conditional writers win', async () => {
    const racers = 8;
    // Only-if-absent on a new key.
    const created = await outcomes(Array.from({ length: racers }, (_, i) => () => db.setClusterConfig('race.create', { i }, { expectedVersion: -1 })));
    expect(created.filter((o) => o === '1')).toHaveLength(1);
    expect(created.filter((o) => o === 'conflict')).toHaveLength(racers - 1);

    // At-version: all read version 1, one moves it to 2.
    const updated = await outcomes(Array.from({ length: racers }, (_, i) => () => db.setClusterConfig('race.create', { i }, { expectedVersion: 1 })));
    expect(updated.filter((o) => o === '2')).toHaveLength(1);
    expect(updated.filter((o) => o === 'conflict')).toHaveLength(racers - 1);
    expect((await db.getClusterConfig('race.create'))?.version).toBe('2');

    // Unconditional writers all succeed, each with its own version.
    const blind = await outcomes(Array.from({ length: racers }, (_, i) => () => db.setClusterConfig('race.blind', { i })));
    expect([...blind].sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: racers }, (_, i) => String(i + 1)));
    expect((await db.getClusterConfig('race.blind'))?.version).toBe(String(racers));
  });

  it('refuses bad input naming the field and writes nothing', async () => {
    await db.setClusterConfig('stable', { a: 1 });
    const cases: [() => Promise<unknown>, string][] = [
      [() => db.getClusterConfig(''), 'key'],
      [() => db.getClusterConfig('Upper Case'), 'key'],
      [() => db.getClusterConfig('k'.repeat(129)), 'key'],
      [() => db.setClusterConfig('k'.repeat(129), 1), 'key'],
      [() => db.setClusterConfig('fresh', undefined), 'value'],
      [() => db.call('SetClusterConfig', { key: 'fresh', value: '{not json' }), 'value'],
      [() => db.call('SetClusterConfig', { key: 'fresh', value: '' }), 'value'],
      [() => db.setClusterConfig('fresh', { pad: 'x'.repeat(64 * 1024) }), 'value'],
      [() => db.setClusterConfig('stable', { a: 2 }, { expectedVersion: -2 }), 'expected_version'],
      [() => db.call('SetClusterConfig', { key: 'stable', value: '1', expectedVersion: '-9223372036854775808' }), 'expected_version'],
    ];
    const before = await t.count('cluster_config');
    for (const [call, field] of cases) {
      const err = await call().then(() => undefined, (e: unknown) => e);
      expect(err, field).toBeInstanceOf(InvalidArgument);
      expect((err as InvalidArgument).field, field).toBe(field);
    }
    expect(await t.count('cluster_config')).toBe(before);
    expect(await db.getClusterConfig('stable')).toMatchObject({ value: { a: 1 }, version: '1' });
  });
});
