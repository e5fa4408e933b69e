// `sfdb_p2c`: a grpc-js load-balancing policy that picks a replica per call by the power
// of two choices on calls in flight. Per pick: two distinct random READY endpoints; the
// one with fewer calls in flight from this channel wins (a tie is decided at random).
// Long-polls (WaitForChanges, marked by the transport with LONG_POLL_MARK) are counted
// apart and chosen by their own count: a long-poll is in flight for up to 30 s, and
// counted with the unary calls it would push them off the replica that holds it. The
// replica watch (WatchReplicas, marked 'watch') is counted apart again (EndpointLoad.count).
// Replicas that other replicas saw stop answering (AVOIDANCE_OPTION) are left out.
//
// Counts move only through the pick result's onCallStarted / onCallEnded, which grpc-js
// calls once each for a call that really started on the chosen subchannel (never for a
// pick that was queued, dropped or re-picked), so a failed or cancelled call gives back
// what it took, and a count never goes below zero.
//
// Connectivity is handled as grpc-js's round_robin does: one pick_first leaf per resolved
// endpoint, kept across resolutions (and with it its counts); READY while any leaf is
// READY, else CONNECTING, else TRANSIENT_FAILURE, else IDLE; an IDLE leaf is told to
// reconnect at once, and a leaf leaving READY asks the resolver to resolve again.
import { connectivityState as State, experimental } from '@grpc/grpc-js';
import type { ChannelOptions } from '@grpc/grpc-js';
import { balancerMetrics } from './metrics.js';
import type { LongPollHolder, ReplicaAvoidance } from './avoidance.js';
import type { BalancerMetrics, InFlightSource, PickChoice, PickKind } from './metrics.js';

type Endpoint = experimental.Endpoint;
type Picker = experimental.Picker;
type PickArgs = experimental.PickArgs;
type PickResult = experimental.PickResult;

export const P2C_POLICY = 'sfdb_p2c';

/** Call metadata key that marks a long-poll; the picker removes it, so it never leaves the process. */
export const LONG_POLL_MARK = 'x-sfdb-lb-long-poll';

/**
 * Channel option carrying the client's ReplicaAvoidance (client/replica-watch.ts): the
 * replicas other replicas saw stop answering. The picker leaves them out while another
 * endpoint is READY. An object, not JSON: grpc-js compares options by identity and only
 * prints them in traces.
 */
export const AVOIDANCE_OPTION = 'sfdb.replica_avoidance';

/** A number in [0, 1); tests inject their own. */
export type RandomSource = () => number;

/** Calls in flight on one endpoint from one channel, by kind. */
export class EndpointLoad {
  calls = 0;
  longPolls = 0;
  /** The client's replica watch (client/replica-watch.ts): at most one per channel. */
  watches = 0;

  /**
   * What a pick of `kind` weighs: a long-poll counts the watch too, so it goes to another
   * replica than the watch that must tell it of its own replica's freeze; a watch counts
   * only watches (none anywhere: a random pick), so the watches, and with them the polls
   * placed around them, spread over the replicas whatever the polls' places when the
   * watches are re-issued together (as after a freeze, every process at once).
   */
  count(kind: PickKind): number {
    if (kind === 'call') return this.calls;
    return kind === 'watch' ? this.watches : this.longPolls + this.watches;
  }

  get idle(): boolean {
    return this.calls === 0 && this.longPolls === 0 && this.watches === 0;
  }
}

/**
 * Whether, of `loads` (one per READY endpoint, just grown by one), a long-poll should move
 * off the endpoint holding the replica watch too: two or more are READY, and one holds
 * both. Placed while only one replica was READY, the two would go silent together if it
 * froze. The balancer asks it when an endpoint becomes READY (and the simulation's channel,
 * harness/sim/, as it models the balancer).
 */
export function pollBesideWatch(loads: readonly EndpointLoad[]): boolean {
  return loads.length >= 2 && loads.some((l) => l.watches > 0 && l.longPolls > 0);
}

/** The kind a LONG_POLL_MARK value names. */
export const WATCH_MARK_VALUE = 'watch';

/**
 * Of `loads` (one per READY endpoint), the index p2c picks for a call of `kind`, and how
 * it was decided. Two distinct indices are drawn; the lower count wins; equal counts go
 * to a third draw.
 */
export function chooseTwo(loads: readonly EndpointLoad[], kind: PickKind, random: RandomSource): { index: number; choice: PickChoice } {
  const n = loads.length;
  if (n === 0) throw new Error('chooseTwo: no endpoint to choose from');
  if (n === 1) return { index: 0, choice: 'single' };
  const a = Math.min(n - 1, Math.floor(random() * n));
  let b = Math.min(n - 2, Math.floor(random() * (n - 1)));
  if (b >= a) b += 1;
  const ca = (loads[a] as EndpointLoad).count(kind);
  const cb = (loads[b] as EndpointLoad).count(kind);
  if (ca !== cb) return { index: ca < cb ? a : b, choice: 'less_loaded' };
  return { index: random() < 0.5 ? a : b, choice: 'tie' };
}

/** One READY endpoint as the picker sees it: its leaf's picker and its load. */
export interface ReadyEndpoint {
  readonly picker: Picker;
  readonly load: EndpointLoad;
}

/** The picker of the READY state: p2c over the endpoints READY when it was made. */
export class P2cPicker implements Picker {
  private readonly loads: EndpointLoad[];

  constructor(
    private readonly ready: readonly ReadyEndpoint[],
    private readonly random: RandomSource,
    private readonly metrics: BalancerMetrics | undefined,
    /** Told when a watch starts on an endpoint holding a long-poll of this channel. */
    private readonly onWatchBesidePoll?: () => void,
  ) {
    if (ready.length === 0) throw new Error('P2cPicker: no READY endpoint');
    this.loads = ready.map((r) => r.load);
  }

  pick(args: PickArgs): PickResult {
    const mark = args.metadata.get(LONG_POLL_MARK)[0];
    const kind: PickKind = mark === undefined ? 'call' : mark === WATCH_MARK_VALUE ? 'watch' : 'long_poll';
    args.metadata.remove(LONG_POLL_MARK);
    const { index, choice } = chooseTwo(this.loads, kind, this.random);
    const chosen = this.ready[index] as ReadyEndpoint;
    this.metrics?.picked(kind, choice);
    const result = chosen.picker.pick(args);
    if (result.pickResultType !== experimental.PickResultType.COMPLETE || result.subchannel === null) return result;
    return counted(result, chosen.load, kind, this.onWatchBesidePoll);
  }
}

/** `result` with its start and end counted on `load` (chained to the leaf's own callbacks). */
function counted(result: PickResult, load: EndpointLoad, kind: PickKind, onWatchBesidePoll?: () => void): PickResult {
  const { onCallStarted, onCallEnded } = result;
  let started = false;
  let ended = false;
  return {
    ...result,
    onCallStarted: () => {
      if (!started && !ended) {
        started = true;
        if (kind === 'long_poll') load.longPolls += 1;
        else if (kind === 'watch') load.watches += 1;
        else load.calls += 1;
        if (kind === 'watch' && load.longPolls > 0) onWatchBesidePoll?.();
      }
      onCallStarted?.();
    },
    onCallEnded: (code, details, metadata) => {
      if (started && !ended) {
        if (kind === 'long_poll') load.longPolls = Math.max(0, load.longPolls - 1);
        else if (kind === 'watch') load.watches = Math.max(0, load.watches - 1);
        else load.calls = Math.max(0, load.calls - 1);
      }
      ended = true;
      onCallEnded?.(code, details, metadata);
    },
  };
}

class P2cConfig implements experimental.TypedLoadBalancingConfig {
  getLoadBalancerName(): string {
    return P2C_POLICY;
  }

  toJsonObject(): object {
    return { [P2C_POLICY]: {} };
  }

  static createFromJson(_obj: unknown): P2cConfig {
    return new P2cConfig();
  }
}

interface Child {
  readonly leaf: experimental.LeafLoadBalancer;
  readonly load: EndpointLoad;
  /** Its address(es) as the metrics show them: `127.0.0.1:13005`. */
  readonly label: string;
  readonly addresses: readonly string[];
}

export class P2cLoadBalancer implements experimental.LoadBalancer, InFlightSource, LongPollHolder {
  private readonly children = new Map<string, Child>();
  private state: State = State.IDLE;
  private updatesPaused = false;
  private lastError: string | null = null;
  private destroyed = false;
  private readonly leafHelper: experimental.ChannelControlHelper;
  private readonly metrics = balancerMetrics();
  private avoidance: ReplicaAvoidance | undefined;
  private readonly detach: (() => void)[] = [];
  /** The endpoints of the last READY picker (by label): one newly READY may part a poll from its watch. */
  private lastReady = new Set<string>();

  constructor(
    private readonly helper: experimental.ChannelControlHelper,
    private readonly random: RandomSource = Math.random,
  ) {
    this.leafHelper = experimental.createChildChannelControlHelper(helper, {
      updateState: (childState, _picker, errorMessage) => {
        // A connection lost: the resolver may know of other replicas by now.
        if (this.state === State.READY && childState !== State.READY) this.helper.requestReresolution();
        if (errorMessage) this.lastError = errorMessage;
        this.publish();
      },
    });
    this.metrics.track(this);
  }

  updateAddressList(
    endpoints: experimental.StatusOr<Endpoint[]>,
    config: experimental.TypedLoadBalancingConfig,
    options: ChannelOptions,
    resolutionNote: string,
  ): boolean {
    if (!(config instanceof P2cConfig)) return false;
    const avoidance = options[AVOIDANCE_OPTION] as ReplicaAvoidance | undefined;
    if (avoidance !== undefined && avoidance !== this.avoidance) {
      this.avoidance = avoidance;
      this.detach.push(avoidance.attach(this), avoidance.onChange(() => this.publish()));
    }
    if (!endpoints.ok) {
      // Keep serving what we have; with nothing, fail calls with the resolver's error.
      if (this.children.size === 0) this.setState(State.TRANSIENT_FAILURE, new experimental.UnavailablePicker(endpoints.error), endpoints.error.details);
      return true;
    }
    if (endpoints.value.length === 0) {
      this.dropChildren(new Set());
      const message = `${P2C_POLICY}: no addresses resolved${resolutionNote ? ` (${resolutionNote})` : ''}`;
      this.setState(State.TRANSIENT_FAILURE, new experimental.UnavailablePicker({ details: message }), message);
      return true;
    }
    this.updatesPaused = true;
    const seen = new Set<string>();
    for (const endpoint of endpoints.value) {
      const key = experimental.endpointToString(endpoint);
      if (seen.has(key)) continue;
      seen.add(key);
      const child = this.children.get(key);
      // A replica resolved again keeps its leaf, its connection and its counts.
      if (child) child.leaf.updateEndpoint(endpoint, options);
      else {
        const leaf = new experimental.LeafLoadBalancer(endpoint, this.leafHelper, options, resolutionNote);
        const addresses = endpoint.addresses.map(experimental.subchannelAddressToString);
        this.children.set(key, { leaf, load: new EndpointLoad(), label: addresses.join(','), addresses });
        leaf.startConnecting();
      }
    }
    this.dropChildren(seen);
    this.updatesPaused = false;
    this.publish();
    return true;
  }

  /**
   * A long-poll and the watch placed together on one replica — the only one READY when they
   * were placed (the other was restarting, say) — would both go silent with it if it froze:
   * nothing would tell the poll to move. When another replica becomes READY, the poll moves
   * (the watch-beside-poll move: the watch then tells of its replica's freeze).
   */
  private partPollFromWatch(ready: readonly { load: EndpointLoad; label: string }[]): void {
    const labels = new Set(ready.map((c) => c.label));
    const grew = [...labels].some((l) => !this.lastReady.has(l));
    this.lastReady = labels;
    if (grew && this.avoidance !== undefined && pollBesideWatch(ready.map((c) => c.load))) this.avoidance.watchBesidePoll();
  }

  exitIdle(): void {
    // A QueuePicker asks this on a pick: every IDLE leaf reconnects.
    for (const child of this.children.values()) if (child.leaf.getConnectivityState() === State.IDLE) child.leaf.exitIdle();
  }

  resetBackoff(): void {
    // The leaves' subchannels keep their own backoff.
  }

  destroy(): void {
    this.destroyed = true;
    for (const d of this.detach.splice(0)) d();
    this.dropChildren(new Set());
  }

  getTypeName(): string {
    return P2C_POLICY;
  }

  longPollsOn(addresses: ReadonlySet<string>): number {
    let n = 0;
    for (const child of this.children.values()) if (child.addresses.some((a) => addresses.has(a))) n += child.load.longPolls;
    return n;
  }

  /** Calls in flight from this channel per endpoint (the metrics' gauge); none once destroyed. */
  inFlight(): ReadonlyMap<string, EndpointLoad> | undefined {
    if (this.destroyed) return undefined;
    return new Map([...this.children.values()].map((child) => [child.label, child.load]));
  }

  private dropChildren(keep: ReadonlySet<string>): void {
    for (const [key, child] of this.children) {
      if (keep.has(key)) continue;
      // Calls still in flight keep their EndpointLoad and decrement it when they end.
      child.leaf.destroy();
      this.children.delete(key);
    }
  }

  /** The aggregate state and picker, from the leaves' states. */
  private publish(): void {
    if (this.updatesPaused || this.destroyed) return;
    const all = [...this.children.values()];
    const connected = all.filter((c) => c.leaf.getConnectivityState() === State.READY);
    // Replicas others saw stop answering are left out while another is READY (fail open).
    const avoided = this.avoidance?.addresses;
    const answering = avoided === undefined || avoided.size === 0 ? connected : connected.filter((c) => !c.addresses.some((a) => avoided.has(a)));
    const ready = answering.length > 0 ? answering : connected;
    const any = (s: State): boolean => all.some((c) => c.leaf.getConnectivityState() === s);
    if (ready.length > 0) {
      this.partPollFromWatch(ready);
      const picker = new P2cPicker(
        ready.map((c) => ({ picker: c.leaf.getPicker(), load: c.load })),
        this.random,
        this.metrics,
        this.avoidance && (() => this.avoidance?.watchBesidePoll()),
      );
      this.setState(State.READY, picker, null);
    } else if (any(State.CONNECTING)) {
      this.setState(State.CONNECTING, new experimental.QueuePicker(this), null);
    } else if (any(State.TRANSIENT_FAILURE)) {
      const message = `${P2C_POLICY}: No connection established. Last error: ${this.lastError ?? 'none'}`;
      this.setState(State.TRANSIENT_FAILURE, new experimental.UnavailablePicker({ details: message }), message);
    } else {
      this.setState(State.IDLE, new experimental.QueuePicker(this), null);
    }
    // Every endpoint stays connected, as with round_robin: an idle leaf reconnects now.
    for (const child of all) if (child.leaf.getConnectivityState() === State.IDLE) child.leaf.exitIdle();
  }

  private setState(state: State, picker: Picker, errorMessage: string | null): void {
    this.state = state;
    this.helper.updateState(state, picker, errorMessage);
  }
}

let registered = false;

/** Registers `sfdb_p2c` with grpc-js (once per process; later calls do nothing). */
export function registerP2c(): void {
  if (registered) return;
  experimental.registerLoadBalancerType(P2C_POLICY, P2cLoadBalancer, P2cConfig);
  registered = true;
}
