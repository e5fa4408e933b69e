// Whether MariaDB answers, from the statements the tier runs anyway (a fake clock).
import { describe, expect, it } from 'vitest';
import { Reachability } from '../../server/db/reachability.js';

function setup() {
  let now = 1_000;
  const reach = new Reachability(() => now);
  return { reach, advance: (ms: number) => (now += ms) };
}

describe('reachability', () => {
  it('is 0 while statements complete, however long each runs', () => {
    const { reach, advance } = setup();
    expect(reach.unreachableForMs()).toBe(0);
    reach.started();
    advance(400);
    reach.finished(false);
    expect(reach.unreachableForMs()).toBe(0);
  });

  it('counts from the first connection failure, and a success clears it', () => {
    const { reach, advance } = setup();
    reach.started();
    reach.finished(true);
    advance(3_000);
    reach.started();
    reach.finished(true); // a second failure does not restart the count
    expect(reach.unreachableForMs()).toBe(3_000);
    reach.started();
    reach.finished(false);
    expect(reach.unreachableForMs()).toBe(0);
  });

  it('a stall: statements outstanding and none completed counts from when they started', () => {
    const { reach, advance } = setup();
    advance(60_000); // idle for a minute: no statement, nothing to judge by
    expect(reach.unreachableForMs()).toBe(0);
    reach.started();
    advance(2_000);
    reach.started();
    advance(6_000);
    expect(reach.unreachableForMs()).toBe(8_000);
    reach.finished(false); // one answered: MariaDB is back
    expect(reach.unreachableForMs()).toBe(0);
    advance(5_000); // the other still runs (a lock wait), counted from the last answer
    expect(reach.unreachableForMs()).toBe(5_000);
    reach.finished(false);
    expect(reach.unreachableForMs()).toBe(0);
  });

  it('a statement that never reached MariaDB (a connection handed over, a deadline passed in the queue) is no answer', () => {
    const { reach, advance } = setup();
    reach.started(); // hangs: the network is cut
    advance(3_000);
    reach.started();
    reach.withdrawn(); // the pool handed over an idle connection
    expect(reach.unreachableForMs()).toBe(3_000);
    reach.started();
    reach.finished(true);
    advance(1_000);
    reach.started();
    reach.withdrawn();
    expect(reach.unreachableForMs()).toBe(4_000);
  });
});
