// The daemon-state poll's knowledge of its own writes: which change on the daemon's state
// topic is the daemon's own RUNNING (no read for it), and which is news.
import { describe, expect, it } from 'vitest';
import type { WrittenDaemonState } from '../../client/index.js';
import { daemonSettings } from '../../daemons/index.js';
import { StatePoll } from '../../daemons/state-poll.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { FakeDaemonDb } from '../helpers/fake-daemon-db.js';

const NODE = '00000000-0000-4000-8000-000000000001';

function poll(): StatePoll {
  const clock = new FakeClock();
  return new StatePoll({ db: new FakeDaemonDb(clock), nodeUuid: NODE, name: 'queues', settings: daemonSettings({}), clock, countError: () => {} });
}

function written(state: WrittenDaemonState['state'], changeSeq: string, operatorHold = false): WrittenDaemonState {
  return { nodeUuid: NODE, daemon: 'queues', state, message: '', updatedAt: '', operatorHold, changeSeq };
}

describe('StatePoll: its own writes', () => {
  it('knows the change of its own RUNNING by its seq; any other change is news', () => {
    const p = poll();
    expect(p.isOwnChange('41')).toBe(false); // nothing written yet
    p.wrote(written('RUNNING', '41'));
    expect(p.isOwnChange('41')).toBe(true);
    expect(p.isOwnChange('42')).toBe(false); // a later write: an operator's, say
    expect(p.isOwnChange('40')).toBe(false);
  });

  it('counts no change as its own when the write did not leave it RUNNING and unheld, or named no change', () => {
    for (const w of [
      written('STOPPING', '7'), // an operator's stop merged into the same batch, written after ours
      written('RUNNING', '7', true),
      written('RUNNING', '0'), // a tier that does not say
    ]) {
      const p = poll();
      p.wrote(written('RUNNING', '6'));
      p.wrote(w);
      expect(p.isOwnChange('7'), JSON.stringify(w)).toBe(false);
      expect(p.isOwnChange('6'), JSON.stringify(w)).toBe(false); // the earlier one is forgotten too
    }
  });
});
