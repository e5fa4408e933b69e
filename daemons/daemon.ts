// The daemon framework: a daemon has a name, the node uuid resolved once at start (no
// node read afterwards), explicit states, one loop, an abortable idle, and stop() that
// awaits the loop. idle() is the extension point that decides how a daemon hears of
// change:
// - feed mode (settings.feed, the default, with a client that has a change waiter): it
//   waits on the change feed — the process's one long-poll — for its own daemon state
//   and the topics its work needs (feedTopics()); a change on its state topic makes it
//   read its state (an operator stop is noticed in milliseconds), a change on its work's
//   topics ends the idle so step() runs (takeChanges() says what changed). No poll runs.
// - polling (the fallback, and anchor mode): it checks a local abort flag every tick
//   (free) and reads its own daemon state at most every daemonStatePollMs, so an
//   operator stop is noticed within that interval plus one tick. When the feed becomes
//   unavailable the daemon falls back to this at once, and returns to the feed (with a
//   re-read of everything: resync) when it recovers.
import { pino } from 'pino';
import type { Logger } from 'pino';
import { DatabaseUnavailable, jitteredDelay, systemClock } from '../client/index.js';
import type { ChangeWaiter, Clock, DatabaseClient, FeedChange, Node, Subscription } from '../client/index.js';
import { MAX_WAIT_MS, topics } from '../proto/topics.js';
import { loopErrors, loopSteps, statePolls } from './metrics.js';
import { periodicTasks } from './periodic.js';
import type { PeriodicTask } from './periodic.js';
import type { DaemonHooks, IdleContext } from './hooks.js';
import { daemonSettings } from './settings.js';
import type { DaemonSettings } from './settings.js';

/** The calls every daemon makes; subclasses ask for more. `changes`: the client's change waiter (feed mode). */
export type DaemonDb = Pick<DatabaseClient, 'getNode' | 'getNodeDaemonState' | 'setNodeDaemonState'> & { readonly changes?: ChangeWaiter };

/** The longest wait between two tries of a start call the database could not answer. */
const START_RETRY_CAP_MS = 5_000;

/** What changed on a daemon's work topics since it last asked; `resync`: re-read everything. */
export interface WorkChanges {
  changes: FeedChange[];
  resync: boolean;
}

export type DaemonState = 'new' | 'starting' | 'running' | 'stopping' | 'stopped' | 'failed';
export type StopReason = 'operator' | 'signal' | 'requested';

export interface DaemonOptions<Db extends DaemonDb> {
  /** The daemon's name: its daemon-state key and its caller identity. */
  name: string;
  nodeUuid: string;
  /** A client whose caller identity is this daemon (createClient({ callerDaemon: name, callerNode })). */
  db: Db;
  settings?: DaemonSettings;
  clock?: Clock;
  log?: Logger;
  hooks?: DaemonHooks;
}

export abstract class Daemon<Db extends DaemonDb = DaemonDb> {
  readonly name: string;
  readonly nodeUuid: string;
  protected readonly db: Db;
  protected readonly settings: DaemonSettings;
  protected readonly clock: Clock;
  protected readonly log: Logger;
  /** The node, read once at start. */
  protected node: Node | undefined;

  private state: DaemonState = 'new';
  private readonly abort = new AbortController();
  private wakeup = new AbortController();
  /** A signal arrived: the STOPPING about to be read back is our own, not an operator's. */
  private signalled = false;
  private loop: Promise<void> | undefined;
  private reason: StopReason | undefined;
  private pollIntervalMs: number;
  private nextPollAt = 0;
  private polls = 0;
  private steps = 0;
  private errors = 0;
  private resolveDone: (reason: StopReason) => void = () => {};
  private readonly hooks: DaemonHooks;
  private readonly idleContext: IdleContext;
  /** Feed mode: the subscription to this daemon's state topic and its work's topics. */
  private feed: Subscription | undefined;
  private work: WorkChanges = { changes: [], resync: false };
  /** Resolves with the reason once the loop has ended and the daemon is stopped. */
  readonly done: Promise<StopReason>;

  constructor(options: DaemonOptions<Db>) {
    this.name = options.name;
    this.nodeUuid = options.nodeUuid;
    this.db = options.db;
    this.settings = options.settings ?? daemonSettings();
    this.clock = options.clock ?? systemClock;
    this.log = options.log ?? pino({ level: 'info', base: { daemon: options.name, node: options.nodeUuid } }, pino.destination(2));
    this.pollIntervalMs = this.settings.daemonStatePollMs;
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    this.hooks = options.hooks ?? {};
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the getter reads the live flag
    const daemon = this;
    this.idleContext = {
      get stopping() {
        return daemon.stopping;
      },
      countError: (err) => this.countError(err),
    };
  }

  /** One step of work; answers how long to idle before the next (0: at once). */
  protected abstract step(): Promise<number>;

  /** The daemon's own periodic database calls, besides the daemon-state poll. */
  protected periodicTasks(): Omit<PeriodicTask, 'daemon'>[] {
    return [];
  }

  /**
   * Feed mode: the topics the daemon's work needs besides its own state (its node's queues,
   * transfers, instances…), built with proto/topics.ts. A change on them ends the idle.
   */
  protected feedTopics(): string[] {
    return [];
  }

  /** True when this daemon runs in feed mode (subscribed), whether or not the feed serves right now. */
  protected get usesFeed(): boolean {
    return this.feed !== undefined;
  }

  /** True while the change feed serves this daemon (else it polls: anchor mode, or the fallback). */
  protected get feedActive(): boolean {
    return this.feed !== undefined && this.db.changes?.mode === 'feed';
  }

  /** What changed on feedTopics() since the last call (ids and kinds only: re-read them). */
  protected takeChanges(): WorkChanges {
    const w = this.work;
    this.work = { changes: [], resync: false };
    return w;
  }

  /**
   * Runs after the node is resolved and before the loop starts. Run again when it fails
   * with DatabaseUnavailable (a cluster starting at once): keep it safe to rerun.
   */
  protected async onStart(): Promise<void> {}

  /** Runs after the loop has ended (release leases, wait for jobs…). */
  protected async onStop(): Promise<void> {}

  get stopping(): boolean {
    return this.abort.signal.aborted;
  }

  protected get signal(): AbortSignal {
    return this.abort.signal;
  }

  async start(): Promise<void> {
    if (this.state !== 'new') throw new Error(`${this.name}: start() once`);
    this.state = 'starting';
    this.node = await this.untilAnswered('GetNode', () => this.db.getNode(this.nodeUuid));
    if (!this.node) {
      this.state = 'failed';
      throw new Error(`${this.name}: node ${this.nodeUuid} does not exist`);
    }
    const waiter = this.settings.feed ? this.db.changes : undefined;
    if (waiter) {
      // Subscribed before RUNNING is written and the work read: nothing after is missed.
      this.feed = waiter.subscribe([topics.daemonState(this.nodeUuid, this.name), ...this.feedTopics()]);
      await waiter.ready();
      periodicTasks.declare({
        daemon: this.name,
        task: 'change-feed-wait',
        operation: 'WaitForChanges',
        intervalMs: MAX_WAIT_MS,
        scale: 'process',
        duty: "hear an operator stop of this daemon and its work's changes (one long-poll per process, re-asked when it answers)",
      });
    }
    periodicTasks.declare({
      daemon: this.name,
      task: 'daemon-state-poll',
      operation: 'GetNodeDaemonState',
      intervalMs: this.settings.daemonStatePollMs,
      scale: 'process',
      duty: waiter ? 'notice an operator stop of this daemon (fallback: only while the change feed is unavailable)' : 'notice an operator stop of this daemon',
    });
    for (const task of this.periodicTasks()) periodicTasks.declare({ daemon: this.name, ...task });
    await this.untilAnswered('SetNodeDaemonState', () => this.db.setNodeDaemonState(this.nodeUuid, this.name, 'RUNNING', ''));
    this.nextPollAt = this.clock.now() + this.pollIntervalMs;
    await this.untilAnswered('onStart', () => this.onStart());
    this.state = 'running';
    this.log.info('started');
    this.loop = this.run();
  }

  /**
   * A start call, retried while the database is unavailable or sheds load (a whole cluster
   * starting at once): a daemon does not give up its start while the tier is there, it
   * waits with jittered backoff (0.1 s doubling to START_RETRY_CAP_MS, spread so the
   * retries of many daemons do not arrive together) until answered or stopped. The calls:
   * the node read, RUNNING recorded (idempotent), onStart (rerunnable). Any other
   * error fails the start.
   */
  private async untilAnswered<T>(what: string, call: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call();
      } catch (err) {
        if (!(err instanceof DatabaseUnavailable) || this.stopping) throw err;
        const delay = jitteredDelay(attempt, 100, START_RETRY_CAP_MS);
        if (attempt === 0 || attempt % 10 === 0) this.log.warn({ err: err.message, attempt, delayMs: delay }, `${what} at start: database unavailable, retrying`);
        await this.clock.sleep(delay, this.abort.signal);
        if (this.stopping) throw err;
      }
    }
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let wait: number;
      try {
        wait = await this.step();
        this.steps += 1;
        loopSteps.inc({ daemon: this.name });
      } catch (err) {
        this.countError(err);
        wait = this.settings.dequeueBackoffMs[this.settings.dequeueBackoffMs.length - 1] ?? 1000;
      }
      if (this.stopping) break;
      // A step that asks for no wait still yields, so a loop can never starve the process.
      if (wait <= 0) await new Promise((resolve) => setImmediate(resolve));
      await this.idle(wait);
    }
    await this.finish();
  }

  /** After the loop: onStop, then STOPPED recorded; whatever ended the loop. */
  private async finish(): Promise<void> {
    try {
      await this.onStop();
    } catch (err) {
      this.countError(err);
    }
    const reason = this.reason ?? 'requested';
    try {
      await this.db.setNodeDaemonState(this.nodeUuid, this.name, 'STOPPED', `stopped (${reason})`, { deadlineMs: 2000 });
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'could not record STOPPED');
    }
    this.feed?.close();
    this.state = 'stopped';
    this.log.info({ reason }, 'stopped');
    this.resolveDone(reason);
  }

  /** Counts an error a loop survives (errors are counted, not thrown). */
  protected countError(err: unknown): void {
    this.errors += 1;
    const name = err instanceof Error ? err.name : 'Error';
    loopErrors.inc({ daemon: this.name, error: name });
    if (!(err instanceof DatabaseUnavailable)) this.log.error({ err }, 'loop step failed');
  }

  /**
   * Waits up to `ms`; returns early when the daemon stops, is woken, or (feed mode) its
   * work's topics changed. Feed mode waits on the change feed; otherwise (or when the
   * feed falls back mid-wait) it polls.
   */
  protected idle(ms: number): Promise<void> {
    if (this.hooks.idle) return this.hooks.idle(ms, (m) => this.frameworkIdle(m), this.idleContext);
    return this.frameworkIdle(ms);
  }

  private async frameworkIdle(ms: number): Promise<void> {
    const end = this.clock.now() + ms;
    if (this.feedActive) return this.feedIdle(end);
    return this.pollingIdle(end);
  }

  /**
   * The feed idle: no database call while nothing changes. A change (or a resync) on the
   * daemon's own state topic reads its state once; one on its work topics ends the idle.
   * A fallback of the feed also ends it, so step() picks the polling waits.
   */
  private async feedIdle(end: number): Promise<void> {
    const sub = this.feed as Subscription;
    const woken = this.wakeup.signal;
    const own = topics.daemonState(this.nodeUuid, this.name);
    for (;;) {
      if (sub.pending) {
        const batch = sub.take();
        const mine = batch.changes.filter((c) => c.topic === own);
        const work = batch.changes.filter((c) => c.topic !== own);
        if (batch.resync || mine.length > 0) await this.pollState();
        if (work.length > 0 || batch.resync) {
          this.work.changes.push(...work);
          this.work.resync ||= batch.resync;
          break;
        }
      }
      if (this.stopping || woken.aborted) break;
      if (!this.feedActive) {
        // The feed fell back: end this idle so step() runs with the polling waits, and
        // read our state at the first poll.
        this.nextPollAt = this.clock.now();
        break;
      }
      const now = this.clock.now();
      if (now >= end) break;
      await sub.wait(end - now, woken);
    }
    if (woken.aborted && !this.stopping) this.wakeup = new AbortController();
  }

  /**
   * The polling idle: waits until `end` in ticks of idleTickMs, each a free check of the
   * local abort flag, and reads the daemon state when its poll is due.
   */
  private async pollingIdle(end: number): Promise<void> {
    // Aborted by a wake-up or a stop (requestStop aborts it too); one per idle cycle, so
    // no listener piles up on a long-lived signal.
    const woken = this.wakeup.signal;
    for (;;) {
      if (this.clock.now() >= this.nextPollAt) await this.pollState();
      if (this.stopping || woken.aborted) break;
      const now = this.clock.now();
      if (now >= end) break;
      await this.clock.sleep(Math.min(this.settings.idleTickMs, end - now, Math.max(0, this.nextPollAt - now)), woken);
    }
    if (woken.aborted && !this.stopping) this.wakeup = new AbortController();
  }

  /** Ends the current idle early (local event: a worker slot freed up, a wake-up hint). */
  protected wake(): void {
    this.wakeup.abort();
  }

  /** Reads this daemon's own state (never the node): STOPPING means an operator stop. */
  private async pollState(): Promise<void> {
    this.polls += 1;
    try {
      const own = await this.db.getNodeDaemonState(this.nodeUuid, this.name);
      this.pollIntervalMs = this.settings.daemonStatePollMs;
      statePolls.inc({ daemon: this.name, outcome: 'ok' });
      if (own?.state === 'STOPPING' && !this.signalled) {
        this.log.info({ message: own.message }, 'operator stop');
        this.requestStop('operator');
      } else if (own === undefined && !this.signalled) {
        // RUNNING was recorded at start; only DeleteNode removes a daemon state (with the
        // node and all its rows): nothing this daemon writes for its node would be taken now.
        this.log.warn('its daemon state is gone: the node was deleted');
        this.requestStop('operator');
      }
    } catch (err) {
      statePolls.inc({ daemon: this.name, outcome: err instanceof DatabaseUnavailable ? 'unavailable' : 'error' });
      if (err instanceof DatabaseUnavailable) {
        this.pollIntervalMs = Math.min(this.pollIntervalMs * 2, this.settings.daemonStatePollMaxMs);
      } else {
        this.countError(err);
      }
    }
    this.nextPollAt = this.clock.now() + this.pollIntervalMs;
  }

  /** Asks the loop to end; stop() awaits it. */
  requestStop(reason: StopReason): void {
    this.hooks.stopRequested?.(reason, this.stopping);
    if (this.stopping) return;
    this.reason = reason;
    this.state = 'stopping';
    this.abort.abort();
    this.wakeup.abort();
  }

  /** Ends the loop and awaits it (onStop, STOPPED recorded). Safe to call more than once. */
  async stop(reason: StopReason = 'requested'): Promise<StopReason> {
    this.requestStop(reason);
    if (!this.loop) {
      this.state = 'stopped';
      this.resolveDone(this.reason ?? reason);
    }
    return this.done;
  }

  /**
   * SIGTERM and SIGINT record STOPPING, then stop the daemon. For a daemon that owns its
   * process; answers a function that removes the handlers.
   */
  installSignalHandlers(): () => void {
    const onSignal = (signal: NodeJS.Signals): void => {
      if (this.stopping || this.signalled) return;
      this.signalled = true;
      this.log.info({ signal }, 'signal: stopping');
      // STOPPING first, then the loop ends and STOPPED is written: sequential, so the
      // last write is always STOPPED.
      void this.db
        .setNodeDaemonState(this.nodeUuid, this.name, 'STOPPING', `signal ${signal}`, { deadlineMs: 2000 })
        .catch(() => undefined)
        .then(() => this.stop('signal'));
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    return () => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
    };
  }

  snapshot(): { name: string; state: DaemonState; reason: StopReason | undefined; steps: number; polls: number; errors: number; pollIntervalMs: number } {
    return {
      name: this.name,
      state: this.state,
      reason: this.reason,
      steps: this.steps,
      polls: this.polls,
      errors: this.errors,
      pollIntervalMs: this.pollIntervalMs,
    };
  }
}
