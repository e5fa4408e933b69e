// One lifecycle for every process of the project (the tier, sf-daemon, the bench mains):
// long-lived parts are Components with start and stop; one Lifecycle per process owns
// them, starts them in the order they were added and stops the ones that started in
// reverse — after a failed start, on drain and on a signal alike. (The shape of Vitess's
// tablet state manager: every part behind open/close, ordered by one owner.)
//
// It lives in proto/ because the tier, the client's users and the tools all need it and
// may not import each other; it imports nothing.

export interface Component {
  /** Names the part in logs and errors ("pool", "registry", "grpc"…). */
  readonly name: string;
  /**
   * Takes what the part needs. `aborted` fires when the owner is asked to stop while this
   * start is under way: a start that can wait long (for an operator, for retries) ends early.
   */
  start(aborted: AbortSignal): unknown;
  /** Releases what start took; called only when start resolved. */
  stop(): unknown;
}

/** A component from two closures; `stop` defaults to nothing to release. */
export function component(name: string, start: (aborted: AbortSignal) => unknown, stop: () => unknown = () => undefined): Component {
  return { name, start, stop };
}

export interface LifecycleOptions {
  /** Told of each step: for logs. */
  onEvent?: (event: { component: string; phase: 'started' | 'stopped' | 'start failed' | 'stop failed'; err?: unknown }) => void;
  /** Runs before each component starts: a test injects a failure at any step with it. */
  beforeStart?: (component: string) => unknown;
}

export type LifecycleState = 'new' | 'starting' | 'running' | 'stopping' | 'stopped';

export class StartAbortedError extends Error {
  constructor(at: string) {
    super(`stopped while starting (before ${at})`);
    this.name = 'StartAbortedError';
  }
}

export class Lifecycle {
  private readonly components: Component[] = [];
  private readonly started: Component[] = [];
  private current: Promise<unknown> = Promise.resolve();
  private stopRequested = false;
  private readonly abort = new AbortController();
  private stopping: Promise<void> | undefined;
  private phase: LifecycleState = 'new';

  constructor(private readonly options: LifecycleOptions = {}) {}

  get state(): LifecycleState {
    return this.phase;
  }

  /** The names of the parts, in start order. */
  get names(): string[] {
    return this.components.map((c) => c.name);
  }

  add(...components: Component[]): this {
    if (this.phase !== 'new') throw new Error(`lifecycle: cannot add ${components.map((c) => c.name).join(', ')} once started`);
    this.components.push(...components);
    return this;
  }

  /**
   * Starts every component in order. On a failure, or when stop() is called meanwhile,
   * stops what started in reverse and rejects (with the failure, or StartAbortedError).
   */
  async start(): Promise<void> {
    if (this.phase !== 'new') throw new Error(`lifecycle: start() once (it is ${this.phase})`);
    this.phase = 'starting';
    for (const c of this.components) {
      if (this.stopRequested) {
        await this.stop();
        throw new StartAbortedError(c.name);
      }
      // Recorded as started inside the step, so a stop() waiting on the step sees it.
      const step = (async () => {
        await this.options.beforeStart?.(c.name);
        await c.start(this.abort.signal);
        this.started.push(c);
      })();
      this.current = step.catch(() => undefined);
      try {
        await step;
      } catch (err) {
        this.options.onEvent?.({ component: c.name, phase: 'start failed', err });
        await this.stop().catch(() => undefined);
        throw err;
      }
      this.options.onEvent?.({ component: c.name, phase: 'started' });
    }
    if (this.stopRequested) {
      await this.stop();
      throw new StartAbortedError('serving');
    }
    this.phase = 'running';
  }

  /**
   * Stops the started components in reverse; safe to call more than once and while
   * starting (the step under way is told through its abort signal, and finishes first). Every component is asked to stop even
   * when an earlier stop fails; the first failure is then the rejection.
   */
  stop(): Promise<void> {
    this.stopRequested = true;
    this.abort.abort();
    this.stopping ??= this.stopAll();
    return this.stopping;
  }

  private async stopAll(): Promise<void> {
    await this.current;
    this.phase = 'stopping';
    const failures: unknown[] = [];
    for (const c of [...this.started].reverse()) {
      try {
        await c.stop();
        this.options.onEvent?.({ component: c.name, phase: 'stopped' });
      } catch (err) {
        failures.push(err);
        this.options.onEvent?.({ component: c.name, phase: 'stop failed', err });
      }
    }
    this.started.length = 0;
    this.phase = 'stopped';
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, `${failures.length} components failed to stop`);
  }
}

export interface SignalOptions {
  signals?: readonly NodeJS.Signals[];
  /** Told of the first signal (stopping) and of a second one (exiting at once). */
  onSignal?: (signal: NodeJS.Signals, second: boolean) => void;
  /** Told when stopping failed. */
  onStopError?: (err: unknown) => void;
  /**
   * A signal while stopping: 'exit' (the default) resolves 1 at once; 'wait' only tells
   * onSignal and lets the stop finish. For a process that hears one Ctrl-C twice: the
   * tsx CLI relays the terminal's signal to its child, which the terminal signalled too;
   * a child in its parent's process group hears the Ctrl-C, then its parent's SIGTERM.
   */
  repeated?: 'exit' | 'wait';
}

/**
 * A process main's ending: the first SIGTERM or SIGINT stops `lifecycle` and resolves 0
 * (1 when a stop failed); a second resolves 1 at once (unless `repeated: 'wait'`).
 * `dispose` removes the handlers.
 */
export function stopOnSignals(lifecycle: Pick<Lifecycle, 'stop'>, options: SignalOptions = {}): { exitCode: Promise<number>; dispose: () => void } {
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  let resolve: (code: number) => void = () => undefined;
  const exitCode = new Promise<number>((r) => (resolve = r));
  let count = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    count += 1;
    options.onSignal?.(signal, count > 1);
    if (count > 1) {
      if (options.repeated !== 'wait') resolve(1);
      return;
    }
    lifecycle.stop().then(
      () => resolve(0),
      (err: unknown) => {
        options.onStopError?.(err);
        resolve(1);
      },
    );
  };
  for (const s of signals) process.on(s, onSignal);
  return { exitCode, dispose: () => signals.forEach((s) => process.off(s, onSignal)) };
}
