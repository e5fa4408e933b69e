// This replica's row in the tier replica registry. At start it claims its id: a live
// duplicate is refused, a dead one is taken over with a new owner token. Then it
// heartbeats on an interval; a heartbeat that finds the row gone (swept, or taken by a
// replica that started with our id while we were stalled) reports the loss, and the
// tier drains and exits non-zero so its supervisor restarts it. A heartbeat that lands
// after a gap longer than the live window (a freeze, an outage of MariaDB) says so: the
// peers may have dropped this replica meanwhile, and it announces itself again.
import { randomUUID } from 'node:crypto';
import { systemClock } from '@sfdb/proto/runtime/clock';
import type { Clock } from '@sfdb/proto/runtime/clock';
import type { Sql } from '../db/sql.js';
import { UnavailableError } from '../errors.js';
import type { Logger } from '@sfdb/proto/runtime/log';
import * as q from './queries.js';

export class RegistryError extends Error {
  override name = 'RegistryError';
}

export interface RegistryOptions {
  replicaId: string;
  address: string;
  /** host:port of this replica's /metrics. */
  metricsAddress: string;
  heartbeatMs: number;
  liveMs: number;
}

export type RegistryState = 'new' | 'registered' | 'lost' | 'stopped';

export class ReplicaRegistry {
  readonly ownerToken = randomUUID();
  private state: RegistryState = 'new';
  private loop: Promise<void> | undefined;
  private readonly abort = new AbortController();
  private lastBeatAt: number | undefined;
  /** When the last write of our row that succeeded (registration or heartbeat) was sent. */
  private lastWriteSentAt = 0;
  private beats = 0;
  private failures = 0;

  constructor(
    private readonly sql: Sql,
    private readonly options: RegistryOptions,
    private readonly log: Logger,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Claims the replica id, or throws RegistryError when a live replica holds it. */
  async register(): Promise<void> {
    const { replicaId, address, metricsAddress, liveMs } = this.options;
    const args = { replicaId, ownerToken: this.ownerToken, address, metricsAddress };
    for (let attempt = 0; attempt < 3; attempt++) {
      const sentAt = this.clock.now();
      const outcome = await this.sql.transaction(async (tx) => {
        const row = await q.lockReplica(tx, replicaId);
        if (!row) return (await q.insertReplica(tx, args)) ? 'registered' : 'raced';
        const ageMs = Number(row.age_us) / 1000;
        if (ageMs < liveMs) {
          throw new RegistryError(
            `replica id "${replicaId}" is live (its heartbeat is ${Math.round(ageMs)} ms old, at ${row.address || 'an unknown address'}): ` +
              'start this replica with another --id (SFDB_REPLICA_ID), or stop the other one first',
          );
        }
        await q.takeOverReplica(tx, args);
        this.log.warn({ replicaId, previousAgeMs: Math.round(ageMs), previousAddress: row.address }, 'took over the id of a dead replica');
        return 'registered';
      });
      if (outcome === 'registered') {
        this.state = 'registered';
        this.lastBeatAt = this.clock.now();
        this.lastWriteSentAt = sentAt;
        return;
      }
    }
    throw new RegistryError(`could not register replica id "${replicaId}": other replicas keep claiming it`);
  }

  /**
   * Starts heartbeating. Duty: keep this replica visible as live to its peers and to
   * operators; interval: options.heartbeatMs (5 s by default); cost: one UPDATE by
   * primary key per replica per interval. `onLost` is called once if the row is gone;
   * `onLiveAgain` each time a heartbeat lands after the row may have looked dead to the
   * peers: longer than the live window since the last write that landed was sent.
   */
  start(onLost: (reason: string) => void, onLiveAgain: () => void = () => {}): void {
    if (this.state !== 'registered' || this.loop) throw new Error('register() first, and start() once');
    this.loop = this.run(onLost, onLiveAgain);
  }

  private async run(onLost: (reason: string) => void, onLiveAgain: () => void): Promise<void> {
    const { replicaId, heartbeatMs, liveMs } = this.options;
    while (!this.abort.signal.aborted) {
      await this.clock.sleep(heartbeatMs, this.abort.signal);
      if (this.abort.signal.aborted) break;
      try {
        const sentAt = this.clock.now();
        const refreshed = await q.heartbeat(this.sql, replicaId, this.ownerToken);
        if (refreshed === 0) {
          this.state = 'lost';
          const reason = `the registry row of replica "${replicaId}" is gone or owned by another process (swept while we were stalled, or taken over)`;
          this.log.error({ replicaId }, reason);
          onLost(reason);
          return;
        }
        this.beats += 1;
        this.failures = 0;
        this.lastBeatAt = this.clock.now();
        // The row's heartbeat was written after lastWriteSentAt and renewed before now: its
        // age may have passed the live window only if this gap did.
        const gap = this.lastBeatAt - this.lastWriteSentAt;
        this.lastWriteSentAt = sentAt;
        if (gap >= liveMs) {
          this.log.info({ replicaId, gapMs: Math.round(gap) }, 'registry heartbeat landed after a gap past the live window: announcing this replica to its peers again');
          onLiveAgain();
        }
      } catch (err) {
        // The database is unreachable: we cannot tell whether the row is ours. Keep
        // trying; when it answers again the heartbeat says.
        this.failures += 1;
        if (!(err instanceof UnavailableError)) this.log.error({ err }, 'registry heartbeat failed');
        else if (this.failures === 1) this.log.warn('registry heartbeat: database unavailable');
      }
    }
  }

  /** Stops heartbeating and deletes our row (only if it is still ours). */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    this.abort.abort();
    await this.loop;
    if (this.state === 'registered') {
      try {
        await q.deleteOwnReplica(this.sql, this.options.replicaId, this.ownerToken);
      } catch (err) {
        this.log.warn({ err: (err as Error).message }, 'could not remove the registry row; the sweep will');
      }
    }
    this.state = 'stopped';
  }

  snapshot(): { state: RegistryState; beats: number; failures: number; msSinceLastBeat: number | undefined } {
    return {
      state: this.state,
      beats: this.beats,
      failures: this.failures,
      msSinceLastBeat: this.lastBeatAt === undefined ? undefined : Math.round(this.clock.now() - this.lastBeatAt),
    };
  }
}
