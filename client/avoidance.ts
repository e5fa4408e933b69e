// The replicas this client's balancer picks around: those another replica saw stop
// answering, as its WatchReplicas answered (client/replica-watch.ts). Shared by the
// transport (which hands it to the balancer as a channel option), the balancer
// (client/p2c.ts) and the change waiter, which moves its long-poll when told.

/** What the balancer tells of its long-polls (client/p2c.ts). */
export interface LongPollHolder {
  /** This channel's long-polls in flight on replicas at `addresses`. */
  longPollsOn(addresses: ReadonlySet<string>): number;
}

/** Why the long-poll should move: its replica is avoided, or the watch was just placed beside it. */
export type MoveReason = 'unresponsive' | 'beside_watch';

export class ReplicaAvoidance {
  private avoided: ReadonlySet<string> = new Set();
  private readonly listeners = new Set<(reason: MoveReason | undefined) => void>();
  private holder: LongPollHolder | undefined;

  /** The balancer of this client's channel; answers a function that detaches it. */
  attach(holder: LongPollHolder): () => void {
    this.holder = holder;
    return () => {
      if (this.holder === holder) this.holder = undefined;
    };
  }

  /** This client's long-polls in flight on an avoided replica now. */
  longPollsOnAvoided(): number {
    return this.avoided.size === 0 ? 0 : (this.holder?.longPollsOn(this.avoided) ?? 0);
  }

  /** The set: addresses as `host:port`, as the replicas registered them. */
  get addresses(): ReadonlySet<string> {
    return this.avoided;
  }

  has(address: string): boolean {
    return this.avoided.has(address);
  }

  set(addresses: readonly string[]): void {
    const next = new Set(addresses);
    if (next.size === this.avoided.size && [...next].every((a) => this.avoided.has(a))) return;
    this.avoided = next;
    const reason = this.longPollsOnAvoided() > 0 ? 'unresponsive' : undefined;
    for (const l of [...this.listeners]) l(reason);
  }

  /**
   * The balancer placed the watch on the replica holding this client's long-poll (a watch
   * is placed at random, see EndpointLoad.count): the poll moves, so that a freeze of that
   * replica is still heard.
   */
  watchBesidePoll(): void {
    // Out of grpc-js's call start, from which the balancer tells it.
    setImmediate(() => {
      for (const l of [...this.listeners]) l('beside_watch');
    });
  }

  /**
   * `listener` runs on every change of the set (with 'unresponsive' when a long-poll of
   * this client is on an avoided replica) and when the watch lands beside the poll.
   * Answers a function that removes it.
   */
  onChange(listener: (reason: MoveReason | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
