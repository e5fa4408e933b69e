// How each mode polls (docs/workload.md "Modes"). The daemons and their duties are the same in
// every mode; a mode is only this policy: the framework's settings, whether a simulated
// process has a static-object cache, and the few polls the framework leaves to a daemon.
// A new mode (feed) adds its policy here and, where it needs one, a branch in a daemon.
import { daemonSettings } from '../../../daemons/index.js';
import type { DaemonSettings } from '../../../daemons/index.js';
import { DEFAULT_PERIODS } from '../protocol.js';
import type { Mode, PeriodDuty } from '../protocol.js';

export interface PollPolicy {
  mode: Mode;
  /** The framework's settings: idle tick, daemon-state poll, dequeue backoff, duty periods. */
  settings: DaemonSettings;
  /** A static-object cache per simulated process (else `cache: false`). */
  cache: boolean;
  /** Every idle tick also reads the daemon's node row (GetNode). */
  nodeReadEveryTick: boolean;
  /** The queue daemons' listing of every cluster lock (ListLeases): at most this often; 0 = on each pass. */
  strayLockListingMs: number;
  /** Transfers' wait after a poll: successive steps while nothing is found, reset on work. */
  transfersBackoffMs: readonly number[];
  /** Sidechannel: each local instance's state and attributes read at most this often. */
  instanceStatePollMs: number;
  /** Net: the IPAM of each network with an interface on its node, read at most this often (once per pass). */
  ipamReadMs: number;
  /**
   * Maintenance: reconcile IPAM reservations once per network, re-read per instance, or
   * (feed) only the networks whose reservations or interfaces changed since the last sweep.
   */
  reconcile: 'per-network' | 'per-instance' | 'changed';
  /** Duty periods (docs/workload.md, or the config's). */
  periods: Record<PeriodDuty, number>;
}

/** The framework's settings the duty periods fix, the same in every mode. */
function periodSettings(periods: Record<PeriodDuty, number>): Partial<DaemonSettings> {
  return {
    nodeHeartbeatMs: periods['node-heartbeat'],
    recoverySweepMs: periods.maintenance,
    registrySweepMs: periods.maintenance,
    // Polling modes poll; only the feed mode waits on the change feed.
    feed: false,
  };
}

type PolicyFactory = (periods: Record<PeriodDuty, number>) => PollPolicy;

/**
 * The policy of each mode; undefined: not here yet. Settings come from the defaults and
 * the mode only, never from SFDB_* in the environment: a mode is what it says.
 */
export const MODES: Record<Mode, PolicyFactory | undefined> = {
  // The framework as shipped.
  anchor: (periods) => {
    const settings = daemonSettings({}, periodSettings(periods));
    return {
      mode: 'anchor',
      settings,
      cache: true,
      nodeReadEveryTick: false,
      strayLockListingMs: 30_000,
      transfersBackoffMs: settings.dequeueBackoffMs,
      instanceStatePollMs: settings.daemonStatePollMs,
      ipamReadMs: 1000,
      reconcile: 'per-network',
      periods,
    };
  },
  // Before any of this: a 5 Hz idle tick that reads the node and the daemon state each
  // tick, fixed 0.2 s polls, every lock listed on each pass, no cache.
  naive: (periods) => {
    const settings = daemonSettings({}, { ...periodSettings(periods), idleTickMs: 200, daemonStatePollMs: 200, dequeueBackoffMs: [200] });
    return {
      mode: 'naive',
      settings,
      cache: false,
      nodeReadEveryTick: true,
      strayLockListingMs: 0,
      transfersBackoffMs: [200],
      instanceStatePollMs: 1000,
      ipamReadMs: 1000,
      reconcile: 'per-instance',
      periods,
    };
  },
  // Ours: the framework in feed mode (the shipped default). Each simulated process holds
  // one WaitForChanges long-poll for its daemon state and its work's topics, re-reads only
  // what changed, and falls back to the anchor polls when the feed is unavailable.
  feed: (periods) => {
    const anchor = (MODES.anchor as PolicyFactory)(periods);
    return { ...anchor, mode: 'feed', settings: daemonSettings({}, { ...periodSettings(periods), feed: true }), reconcile: 'changed' };
  },
};

export const FEED_NOT_YET = 'this mode is not available';

/** The policy of `mode` with the config's periods over the defaults; undefined when the mode is not here yet. */
export function modePolicy(mode: Mode, periods: Partial<Record<PeriodDuty, number>> = {}): PollPolicy | undefined {
  return MODES[mode]?.({ ...DEFAULT_PERIODS, ...periods });
}
