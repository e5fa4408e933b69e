// Which held long-polls a change wakes (server/changefeed/waiters.ts), in memory: every
// waiter of its topic, less those whose interest summary does not hold its id and those
// that keep reports quiet on its topic when it is a report.
import { describe, expect, it } from 'vitest';
import { InterestFilter } from '../../proto/interest.js';
import { WaiterSet, wokenBy } from '../../server/changefeed/waiters.js';
import type { Interest, Waiter } from '../../server/changefeed/waiters.js';
import type { WindowEntry } from '../../server/changefeed/window.js';

const own = 'daemon/n/queues';
const blobs = 'static/blob';

function waiter(topics: string[], interest?: Interest): Waiter {
  return { topics: new Set(topics), cursor: { high: 0n, gaps: [] }, answer: () => undefined, ...(interest ? { interest } : {}) };
}

function entry(topic: string, objectId: string, kind: WindowEntry['kind'], seq = 1n): WindowEntry {
  return { seq, topic, objectType: 'daemon_state', objectId, kind };
}

describe('wokenBy', () => {
  it('a report wakes the waiters of its topic but those that keep reports quiet there; any other change wakes them all', () => {
    const set = new WaiterSet();
    const quiet = waiter([own], { topics: new Set(), filter: undefined, quietReports: new Set([own]) });
    const plain = waiter([own]);
    const elsewhere = waiter([own, blobs], { topics: new Set(), filter: undefined, quietReports: new Set([blobs]) });
    for (const w of [quiet, plain, elsewhere]) set.add(w);
    const report = wokenBy(set, [entry(own, 'queues', 'reported')]);
    expect(report.woken).toEqual(new Set([plain, elsewhere]));
    expect(report.kept).toBe(1);
    expect(wokenBy(set, [entry(own, 'queues', 'state')]).woken).toEqual(new Set([quiet, plain, elsewhere]));
    // A report and another change in one batch: the other change wakes the quiet one.
    expect(wokenBy(set, [entry(own, 'queues', 'reported', 1n), entry(own, 'queues', 'state', 2n)]).woken).toEqual(new Set([quiet, plain, elsewhere]));
  });

  it('quiet reports and an interest summary narrow together', () => {
    const set = new WaiterSet();
    const both = waiter([own, blobs], { topics: new Set([blobs]), filter: InterestFilter.of(['held']), quietReports: new Set([own]) });
    set.add(both);
    expect(wokenBy(set, [entry(blobs, 'other', 'updated')]).woken.size).toBe(0);
    expect(wokenBy(set, [entry(blobs, 'held', 'updated')]).woken.size).toBe(1);
    expect(wokenBy(set, [entry(own, 'queues', 'reported')]).woken.size).toBe(0);
    expect(wokenBy(set, [entry(own, 'queues', 'deleted')]).woken.size).toBe(1);
  });
});
