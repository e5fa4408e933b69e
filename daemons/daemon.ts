// The daemon framework: a daemon has a name, the node uuid resolved once at start (no
// node read afterwards), explicit states, one loop, an abortable idle, and stop() that
// awaits the loop. idle() is the extension point that decides how a daemon hears of
// change in its work: on the change feed (feed mode, the default) or polling (idle.ts).
// An operator stop is heard by the daemon's own-state watcher (own-state.ts), the one
// place that reads the daemon's own state, and it ends the idle at once. An operator stop
// outlives the process: a daemon started while an operator holds it stopped does not run,
// but waits, held, until an operator starts it (operator-hold.ts).
import { ROOT_CONTEXT } from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';
import { createLogger } from '@sfdb/proto/runtime/log';
import type { Logger } from '@sfdb/proto/runtime/log';
import { DatabaseUnavailable, heldByOperator, systemClock } from '@sfdb/client';
import type { Clock, Node, NodeDaemonState, WrittenDaemonState } from '@sfdb/client';
import { loopErrors, loopSteps, operatorHold } from './metrics.js';
import { declareFrameworkTasks, periodicTasks } from './periodic.js';
import type { PeriodicTask } from './periodic.js';
import type { DaemonHooks, IdleContext, StopReason } from './hooks.js';
import { DaemonIdle } from './idle.js';
import { HoldWait } from './operator-hold.js';
import { OwnStateWatcher } from './own-state.js';
import { reportState } from './report.js';
import type { ReportContext } from './report.js';
import { untilAnswered } from './start-retry.js';
import { IterationTrace } from './trace.js';
import { daemonSettings } from './settings.js';
import type { DaemonDb, DaemonOptions, DaemonState, WorkChanges } from './types.js';
import type { DaemonSettings } from './settings.js';


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
  /** A signal arrived: the STOPPING about to be read back is our own, not an operator's. */
  private signalled = false;
  private loop: Promise<void> | undefined;
  private reason: StopReason | undefined;
  /** The daemon's own state, watched: how it hears an operator's stop (and start, while held). */
  private readonly watcher: OwnStateWatcher;
  private steps = 0;
  private errors = 0;
  private resolveDone: (reason: StopReason) => void = () => {};
  private readonly hooks: DaemonHooks;
  private readonly idleContext: IdleContext;
  /** The framework's idle, and what the daemon hears through it (feed mode). */
  private readonly idler: DaemonIdle;
  /** In the operator hold's wait: its end resolves `done` (stop() does not). */
  private hold: HoldWait | undefined;
  /** The step running, for its span (trace.ts). */
  private iteration: IterationTrace | undefined;
  /** Resolves with the reason once the loop has ended and the daemon is stopped. */
  readonly done: Promise<StopReason>;

  constructor(options: DaemonOptions<Db>) {
    this.name = options.name;
    this.nodeUuid = options.nodeUuid;
    this.db = options.db;
    this.settings = options.settings ?? daemonSettings();
    this.clock = options.clock ?? systemClock;
    this.log = options.log ?? createLogger(this.settings.logLevel, { daemon: options.name, node: options.nodeUuid });
    this.watcher = new OwnStateWatcher({
      db: this.db,
      nodeUuid: this.nodeUuid,
      name: this.name,
      settings: this.settings,
      clock: this.clock,
      countError: (err) => this.countError(err),
      onRead: (own) => this.heard(own),
      // Between the feed and polling the step may wait otherwise: let it run again.
      onModeChange: () => this.idler.wake(),
    });
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
    this.idler = new DaemonIdle({ clock: this.clock, stopped: this.abort.signal, workTopics: () => this.feedTopics() });
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
    return this.idler.usesFeed;
  }

  /**
   * True while the change feed serves this daemon (else it polls: anchor mode, or the
   * fallback). Not once its client's waiter is closed: a closed subscription's wait
   * returns at once, and the feed idle would spin on it.
   */
  protected get feedActive(): boolean {
    return this.idler.feedActive;
  }

  /**
   * What changed on feedTopics() since the last call (ids and kinds only: re-read them) —
   * or, given `topics`, only what changed on those, the rest kept for a later call. A
   * daemon class takes the changes of its own topics only, so a subclass that adds topics
   * of its own (`[...super.feedTopics(), mine]`) finds its changes whatever the base class's
   * step() took. `resync`: changes may have been missed (re-read everything).
   */
  protected takeChanges(topics?: ReadonlySet<string>): WorkChanges {
    return this.idler.take(topics);
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

  /**
   * The running step's span as an OpenTelemetry Context, for the calls it makes
   * (`this.db.getX(id, { trace: this.trace })`): ask once the step has work to do. The
   * first ask makes the span (started when the step did); a step that never asks leaves
   * none. ROOT_CONTEXT outside a step. A no-op unless the process registered an SDK.
   */
  protected get trace(): Context {
    return this.iteration?.context ?? ROOT_CONTEXT;
  }

  async start(): Promise<void> {
    if (this.state !== 'new') throw new Error(`${this.name}: start() once`);
    this.state = 'starting';
    const waiter = this.settings.feed ? this.db.changes : undefined;
    try {
      // Subscribed first, before the node is read, RUNNING written and the work read:
      // nothing after is missed. The two subscriptions and the static-object cache's (which
      // joins at the cache's first load, the node's, and waits for the feed's first cursor
      // so that its copy is covered: client/cache-feed.ts) join one handshake, made in one
      // turn; subscribed after that answer, they would each cancel the poll in flight.
      if (waiter) {
        this.watcher.subscribe(waiter);
        this.idler.subscribe(waiter);
      }
      this.node = await this.untilAnswered('GetNode', () => this.db.getNode(this.nodeUuid));
      if (!this.node) {
        this.state = 'failed';
        throw new Error(`${this.name}: node ${this.nodeUuid} does not exist`);
      }
      if (waiter) await waiter.ready();
      declareFrameworkTasks(this.name, this.settings, waiter !== undefined);
      operatorHold.set({ daemon: this.name }, 0); // a series from the start: 1 while held
      for (const task of this.periodicTasks()) periodicTasks.declare({ daemon: this.name, ...task });
      if (!(await this.recordRunning())) return; // stopped while an operator held it: done
      await this.untilAnswered('onStart', () => this.onStart());
    } catch (err) {
      // A start that fails leaves nothing running behind it.
      await this.watcher.close();
      this.idler.close();
      throw err;
    }
    // An operator stop heard while starting has already asked the loop to end: it ends at once.
    if (!this.stopping) this.state = 'running';
    this.log.info('started');
    this.loop = this.run();
  }

  /**
   * Records RUNNING. While an operator holds the daemon stopped the tier refuses it, and
   * the daemon waits, held, until the hold is released (then records RUNNING again) or it
   * is stopped: false, with STOPPED recorded and `done` resolved.
   */
  private async recordRunning(): Promise<boolean> {
    for (;;) {
      try {
        const written = await this.untilAnswered('SetNodeDaemonState', () => this.db.setNodeDaemonState(this.nodeUuid, this.name, 'RUNNING', ''));
        this.watcher.wrote(written, { state: 'RUNNING', operatorHold: false });
        this.watcher.start();
        return true;
      } catch (err) {
        if (!heldByOperator(err)) throw err;
        this.state = 'held';
        // While held only its own state matters: the work's topics leave the long-poll.
        this.idler.close();
        this.watcher.start();
        const hold = (this.hold = new HoldWait({
          name: this.name,
          nodeUuid: this.nodeUuid,
          log: this.log,
          hooks: this.hooks,
          signal: this.abort.signal,
          recordStopped: (message) => this.recordHeld(message),
          owe: () => this.watcher.owe(),
        }));
        const released = await hold.wait(err.message);
        this.hold = undefined;
        if (!released) {
          // Stopped while held (STOPPED recorded, the hold kept): done.
          await this.watcher.close();
          this.state = 'stopped';
          this.resolveDone(this.reason ?? 'requested');
          return false;
        }
        this.state = 'starting';
        this.idler.resume();
      }
    }
  }

  /** STOPPED recorded while held, once (hedged); its change is the daemon's own when the row says held. */
  private async recordHeld(message: string): Promise<WrittenDaemonState | undefined> {
    const written = await reportState(this.reportContext(), 'STOPPED', message, { budgetMs: 0 });
    if (written) this.watcher.wrote(written, { state: 'STOPPED', operatorHold: true });
    return written;
  }

  private reportContext(): ReportContext {
    return { db: this.db, nodeUuid: this.nodeUuid, name: this.name, clock: this.clock };
  }

  /** A start call, retried while the database is unavailable (start-retry.ts), until answered or stopped. */
  private untilAnswered<T>(what: string, call: () => Promise<T>): Promise<T> {
    return untilAnswered(what, call, { clock: this.clock, log: this.log, signal: this.abort.signal });
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let wait: number;
      const iteration = (this.iteration = new IterationTrace(this.name, this.nodeUuid));
      try {
        wait = await this.step();
        iteration.end();
        this.steps += 1;
        loopSteps.inc({ daemon: this.name });
      } catch (err) {
        iteration.end(err);
        this.countError(err);
        wait = this.settings.dequeueBackoffMs[this.settings.dequeueBackoffMs.length - 1] ?? 1000;
      }
      this.iteration = undefined;
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
    await this.watcher.close();
    // Retried (hedged, with backoff) while the tier cannot answer, for up to the stop report's budget.
    const written = await reportState(this.reportContext(), 'STOPPED', `stopped (${reason})`, { budgetMs: this.settings.stopReportMs });
    if (!written) this.log.warn({ budgetMs: this.settings.stopReportMs }, 'could not record STOPPED');
    this.idler.close();
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
    if (this.hooks.idle) return this.hooks.idle(ms, (m) => this.idler.wait(m), this.idleContext);
    return this.idler.wait(ms);
  }

  /** Ends the current idle early (local event: a worker slot freed up, a wake-up hint). */
  protected wake(): void {
    this.idler.wake();
  }

  /**
   * A read of this daemon's own state (the watcher's). While running (or starting, its
   * RUNNING recorded), STOPPING or an operator's hold means an operator stop; while held,
   * the hold's wait is told.
   */
  private heard(own: NodeDaemonState | undefined): void {
    if (this.hold) {
      this.hold.read(own);
      return;
    }
    if (this.signalled || (this.state !== 'running' && this.state !== 'starting')) return;
    if (own?.state === 'STOPPING' || own?.operatorHold) {
      this.log.info({ message: own.message, operatorHold: own.operatorHold }, 'operator stop');
      this.requestStop('operator');
    } else if (own === undefined) {
      // RUNNING was recorded at start; only DeleteNode removes a daemon state (with the
      // node and all its rows): nothing this daemon writes for its node would be taken now.
      this.log.warn('its daemon state is gone: the node was deleted');
      this.requestStop('operator');
    }
  }

  /** Asks the loop to end; stop() awaits it. */
  requestStop(reason: StopReason): void {
    this.hooks.stopRequested?.(reason, this.stopping);
    if (this.stopping) return;
    this.reason = reason;
    this.state = 'stopping';
    this.abort.abort();
    this.idler.wake();
  }

  /** Ends the loop and awaits it (onStop, STOPPED recorded). Safe to call more than once. */
  async stop(reason: StopReason = 'requested'): Promise<StopReason> {
    this.requestStop(reason);
    // Held: the hold's wait ends on the stop, and start() resolves `done`.
    if (!this.loop && !this.hold) {
      void this.watcher.close();
      this.state = 'stopped';
      this.resolveDone(this.reason ?? reason);
    }
    return this.done;
  }

  /**
   * A stop for a signal: records STOPPING, then stops the daemon (STOPPED last, since the
   * two are sequential). Once only; a later call answers the same stop.
   */
  stopForSignal(signal: NodeJS.Signals): Promise<StopReason> {
    if (this.stopping || this.signalled) return this.done;
    this.signalled = true;
    this.log.info({ signal }, 'signal: stopping');
    // One hedged try: STOPPED follows, retried, and says the same.
    return reportState(this.reportContext(), 'STOPPING', `signal ${signal}`, { budgetMs: 0 }).then(() => this.stop('signal'));
  }

  /**
   * SIGTERM and SIGINT stop the daemon (stopForSignal), for a daemon that owns its process
   * without a lifecycle of its own; answers a function that removes the handlers.
   * sf-daemon (main.ts) has its lifecycle stop the daemon instead.
   */
  installSignalHandlers(): () => void {
    const onSignal = (signal: NodeJS.Signals): void => void this.stopForSignal(signal);
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
      polls: this.watcher.reads,
      errors: this.errors,
      pollIntervalMs: this.watcher.intervalMs,
    };
  }
}
