// bench:rpc's command line: how the servers run (--from, --baseline-from), the tiers that trace (--traced).
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../bench/rpc/options.js';

describe('bench:rpc options', () => {
  it('runs the servers as they ship unless told, and the baseline as the run', () => {
    expect(parseOptions([])).toMatchObject({ from: 'built', baselineFrom: 'built', baseline: undefined });
    expect(parseOptions(['--from', 'source', '--baseline', 'HEAD'])).toMatchObject({ from: 'source', baselineFrom: 'source' });
    expect(parseOptions(['--baseline', 'HEAD', '--baseline-from', 'source'])).toMatchObject({ from: 'built', baselineFrom: 'source' });
  });

  it('takes 0 among the sampling percentages: the control without an SDK', () => {
    expect(parseOptions(['--traced', '0,1,100']).traced).toEqual([0, 1, 100]);
    expect(() => parseOptions(['--traced=-1'])).toThrow(/--traced: "-1"/);
    expect(() => parseOptions(['--traced', '101'])).toThrow(/--traced: "101"/);
  });

  it('refuses what it cannot run, naming the option', () => {
    expect(() => parseOptions(['--from', 'dist'])).toThrow(/--from: "dist" is not built or source/);
    expect(() => parseOptions(['--baseline', 'HEAD', '--baseline-from', 'tsx'])).toThrow(/--baseline-from: "tsx"/);
    expect(() => parseOptions(['--baseline-from', 'source'])).toThrow(/--baseline-from: only with --baseline/);
  });
});
