// The caller_daemon label's admission (server/caller-names.ts): configured names always,
// new valid names first-come up to the cap, later ones `other`, no name `unknown`.
import { describe, expect, it } from 'vitest';
import { CallerNames } from '../../server/caller-names.js';

function names(max: number, configured: string[] = ['queues', 'net']) {
  const admitted: [string, number][] = [];
  const capped: string[] = [];
  const callers = new CallerNames({
    configured: new Set(configured),
    max,
    onAdmitted: (name, n) => admitted.push([name, n]),
    onCapReached: (name) => capped.push(name),
  });
  return { callers, admitted, capped };
}

describe('caller_daemon names', () => {
  it('admits new names in the order they first call, up to the cap; the rest are other', () => {
    const { callers, admitted, capped } = names(2);
    expect(callers.label('imager')).toBe('imager');
    expect(callers.label('scheduler')).toBe('scheduler');
    expect(callers.label('third')).toBe('other');
    expect(callers.label('fourth')).toBe('other');
    // Admitted names stay theirs; a refused one stays other, even when called again.
    expect(callers.label('imager')).toBe('imager');
    expect(callers.label('third')).toBe('other');
    expect(admitted).toEqual([
      ['imager', 1],
      ['scheduler', 2],
    ]);
    // Told once, naming the first name refused.
    expect(capped).toEqual(['third']);
    expect(callers.known()).toEqual(['queues', 'net', 'imager', 'scheduler']);
  });

  it('counts configured names under their own whatever the cap, and takes no room for them', () => {
    const { callers, admitted } = names(1);
    expect(callers.label('queues')).toBe('queues');
    expect(callers.label('net')).toBe('net');
    expect(admitted).toEqual([]);
    expect(callers.label('imager')).toBe('imager');
    expect(callers.label('queues')).toBe('queues');
    expect(callers.label('late')).toBe('other');
  });

  it('answers unknown for no name, an invalid one, and the two words of its own, admitting none of them', () => {
    const { callers, admitted, capped } = names(5);
    for (const daemon of [undefined, '', 'Upper', '-dash', 'x'.repeat(65), 'unknown', 'other']) {
      expect(callers.label(daemon)).toBe('unknown');
    }
    expect(admitted).toEqual([]);
    expect(capped).toEqual([]);
  });

  it('with a cap of 0 counts only the configured names under their own', () => {
    const { callers, admitted, capped } = names(0);
    expect(callers.label('imager')).toBe('other');
    expect(callers.label('net')).toBe('net');
    expect(admitted).toEqual([]);
    expect(capped).toEqual(['imager']);
  });

  it('holds at most configured + cap + 2 label values, however many names call', () => {
    const { callers } = names(32);
    const labels = new Set<string>();
    for (let i = 0; i < 1000; i++) labels.add(callers.label(`daemon-${i}`));
    labels.add(callers.label(undefined));
    for (const c of ['queues', 'net']) labels.add(callers.label(c));
    expect(labels.size).toBe(2 + 32 + 2);
  });
});
