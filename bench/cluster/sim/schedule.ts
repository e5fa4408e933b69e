// Jobs on fixed periods inside one daemon's step: each job runs when due, at a fixed rate
// (due + period, so the period does not drift by the job's own time), and the step answers
// how long to idle until the next one is due. A new instance (a restart) runs each at once.
import type { Clock } from '../../../client/index.js';

export interface PeriodicJob {
  name: string;
  everyMs: number;
  run: () => Promise<void>;
}

export class Schedule {
  private readonly due = new Map<string, number>();

  constructor(
    private readonly jobs: readonly PeriodicJob[],
    private readonly clock: Clock,
  ) {}

  /** Runs every due job once (errors to `countError`); answers ms until the next is due. */
  async runDue(countError: (err: unknown) => void, stopping: () => boolean): Promise<number> {
    for (const job of this.jobs) {
      const now = this.clock.now();
      const due = this.due.get(job.name) ?? now;
      if (due > now) continue;
      // Fixed rate; after falling a whole period behind, start over from now.
      this.due.set(job.name, due + job.everyMs > now ? due + job.everyMs : now + job.everyMs);
      try {
        await job.run();
      } catch (err) {
        countError(err);
      }
      if (stopping()) return 0;
    }
    const now = this.clock.now();
    return Math.max(0, Math.min(...this.jobs.map((j) => (this.due.get(j.name) ?? now) - now)));
  }
}
