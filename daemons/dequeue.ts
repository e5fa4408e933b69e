// Adaptive dequeue: a full batch fetches again at once; an empty one backs off along the
// configured steps (0.2 → 0.4 → 0.8 → 1.6 → 2.0 s by default, the last repeating); work
// resets it. A full worker pool is not an empty queue: it waits for a free slot without
// calling the database.

export type BatchOutcome = 'full' | 'partial' | 'empty';

export class DequeueBackoff {
  private index = 0;

  constructor(private readonly steps: readonly number[]) {
    if (steps.length === 0) throw new Error('backoff needs at least one step');
  }

  /** How long to wait before the next Dequeue, after a batch with this outcome. */
  next(outcome: BatchOutcome): number {
    if (outcome === 'full') {
      this.index = 0;
      return 0;
    }
    if (outcome === 'partial') {
      // Work was found and the queue is now drained: start the backoff over.
      this.index = 0;
    }
    const wait = this.steps[Math.min(this.index, this.steps.length - 1)] as number;
    this.index = Math.min(this.index + 1, this.steps.length - 1);
    return wait;
  }

  reset(): void {
    this.index = 0;
  }
}

export function outcomeOf(claimed: number, asked: number): BatchOutcome {
  if (claimed === 0) return 'empty';
  return claimed >= asked ? 'full' : 'partial';
}

/** A fixed number of slots for running jobs. */
export class WorkerPool {
  private active = 0;
  private waiters: (() => void)[] = [];
  private readonly running = new Set<Promise<void>>();

  /** `onFree` runs each time a job ends and its slot is free again. */
  constructor(
    readonly size: number,
    private readonly onFree: () => void = () => {},
  ) {
    if (!Number.isInteger(size) || size < 1) throw new Error('a worker pool needs at least one slot');
  }

  get free(): number {
    return this.size - this.active;
  }

  get busy(): number {
    return this.active;
  }

  /** Runs `job` in a slot (the caller checked `free`); errors are the job's to handle. */
  run(job: () => Promise<void>): void {
    if (this.active >= this.size) throw new Error('no free slot');
    this.active += 1;
    const p = job()
      .catch(() => undefined)
      .finally(() => {
        this.active -= 1;
        this.running.delete(p);
        const waiters = this.waiters;
        this.waiters = [];
        for (const w of waiters) w();
        this.onFree();
      });
    this.running.add(p);
  }

  /** Resolves when a slot is free (at once if one is), or when `signal` aborts. No database call. */
  whenFree(signal?: AbortSignal): Promise<void> {
    if (this.active < this.size || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      signal?.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  /** Resolves when every running job has finished. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
