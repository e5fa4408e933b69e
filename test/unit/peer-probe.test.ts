// PeerProbe on a fake clock with a scripted prober: a peer is named unresponsive once its
// last answer is older than the bound and not before, a pause shorter than the bound names
// nobody, watchers hear each change of the set and nothing else, and a peer that leaves
// the registry while silent stays named until it answers or is forgotten.
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../proto/runtime/log.js';
import { PeerProbe } from '../../server/changefeed/peer-probe.js';
import type { Prober, ReplicaHealth } from '../../server/changefeed/peer-probe.js';
import { Metrics } from '../../server/metrics.js';
import { FakeClock, flush } from '../helpers/fake-clock.js';

const PROBE_MS = 250;
const UNRESPONSIVE_MS = 1_300;
const FORGET_MS = 60_000;

/** Answers every probe at once, but for the peers in `silent`, whose probes stay out until they are let go. */
class ScriptedProber implements Prober {
  readonly silent = new Set<string>();
  private readonly held: { address: string; done: (answered: boolean) => void }[] = [];
  readonly forgotten: string[] = [];

  probe(address: string, done: (answered: boolean) => void): void {
    if (this.silent.has(address)) this.held.push({ address, done });
    else done(true);
  }

  /** `address` answers again: its held probe too. */
  resume(address: string): void {
    this.silent.delete(address);
    for (const h of this.held.splice(0)) if (h.address === address) h.done(true);
  }

  forget(address: string): void {
    this.forgotten.push(address);
  }
}

function setup(): { probe: PeerProbe; prober: ScriptedProber; clock: FakeClock; metrics: Metrics; tick: (ms: number) => Promise<void> } {
  const clock = new FakeClock();
  const prober = new ScriptedProber();
  const metrics = new Metrics('peer-probe-test');
  const probe = new PeerProbe({ probeMs: PROBE_MS, unresponsiveMs: UNRESPONSIVE_MS, forgetMs: FORGET_MS, maxWatchers: 10 }, metrics, createLogger('silent'), clock, prober);
  // The probe's rounds, as its interval would run them, on the fake clock.
  const tick = async (ms: number): Promise<void> => {
    for (let t = 0; t < ms; t += PROBE_MS) {
      await clock.advance(PROBE_MS);
      probe.tick();
    }
  };
  return { probe, prober, clock, metrics, tick };
}

describe('PeerProbe', () => {
  it('names a peer silent for the bound, not before, and no more once it answers', async () => {
    const { probe, prober, tick } = setup();
    probe.setPeers(['10.0.0.2:13005', '10.0.0.3:13005']);
    await tick(1_000);
    expect(probe.current).toEqual({ version: '', unresponsive: [] });
    prober.silent.add('10.0.0.3:13005');
    await tick(1_000); // silent 1 s (and the last answer a round older): not yet
    expect(probe.current.unresponsive).toEqual([]);
    await tick(500);
    expect(probe.current.unresponsive).toEqual(['10.0.0.3:13005']);
    expect(probe.current.version).not.toBe('');
    prober.resume('10.0.0.3:13005');
    expect(probe.current).toEqual({ version: '', unresponsive: [] });
  });

  it('a pause shorter than the bound names nobody', async () => {
    const { probe, prober, tick } = setup();
    probe.setPeers(['10.0.0.2:13005']);
    await tick(500);
    prober.silent.add('10.0.0.2:13005');
    await tick(1_000);
    prober.resume('10.0.0.2:13005');
    await tick(2_000);
    expect(probe.current.unresponsive).toEqual([]);
  });

  it('holds a watcher whose version is current, and answers it on a change of the set', async () => {
    const { probe, prober, tick } = setup();
    probe.setPeers(['10.0.0.2:13005']);
    const stop = new AbortController();
    let heard: ReplicaHealth | undefined;
    void probe.watch('', 60_000, stop.signal).then((h) => (heard = h));
    await tick(1_000);
    await flush();
    expect(heard).toBeUndefined();
    prober.silent.add('10.0.0.2:13005');
    await tick(2_000);
    await flush();
    expect(heard?.unresponsive).toEqual(['10.0.0.2:13005']);
    // A stale version is answered at once with the current set.
    await expect(probe.watch('', 60_000, stop.signal)).resolves.toEqual(probe.current);
    probe.stop();
  });

  it('a cancelled watch leaves the watcher gauge at rest', async () => {
    const { probe, metrics } = setup();
    const stop = new AbortController();
    const held = probe.watch('', 60_000, stop.signal);
    expect(await metrics.registry.getSingleMetricAsString('database_replica_watchers')).toMatch(/ 1$/m);
    stop.abort();
    await held;
    expect(await metrics.registry.getSingleMetricAsString('database_replica_watchers')).toMatch(/ 0$/m);
  });

  it('keeps naming a silent peer that left the registry until it is forgotten', async () => {
    const { probe, prober, tick } = setup();
    probe.setPeers(['10.0.0.2:13005']);
    prober.silent.add('10.0.0.2:13005');
    await tick(2_000);
    probe.setPeers([]); // its heartbeat row aged out
    expect(probe.current.unresponsive).toEqual(['10.0.0.2:13005']);
    await tick(FORGET_MS);
    expect(probe.current.unresponsive).toEqual([]);
    expect(prober.forgotten).toEqual(['10.0.0.2:13005']);
  });
});
