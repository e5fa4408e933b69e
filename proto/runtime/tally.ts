// Counters on a hot path. prom-client's counter hashes its label values into a string and
// looks its series up by that string on every inc(), through a child of labels() too (a
// child only binds the label object): a few tenths of a µs, several times per call. A
// tallied counter keeps each series' increments as a plain number in an object its caller
// holds (Tally), and adds them to the prom-client counter when that counter is read — a
// scrape, or get(): the same values, read at the same moments, for a field addition per
// increment. The series are as bounded as the counter's labels are.
import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';
import type { LabelsOf, MetricSpec } from './metrics.js';

/** One series of a TalliedCounter: hold it, and add to it. */
export class Tally {
  /** Added since the counter was last read; undefined: nothing since (a read then makes no series). */
  private pending: number | undefined = undefined;

  constructor(readonly labels: Readonly<Record<string, string>>) {}

  /** Adds `by` (≥ 0; default 1). */
  inc(by = 1): void {
    this.pending = this.pending === undefined ? by : this.pending + by;
  }

  /** What was added since the last take, and forgets it. */
  take(): number | undefined {
    const { pending } = this;
    this.pending = undefined;
    return pending;
  }
}

export class TalliedCounter<S extends MetricSpec> {
  private readonly tallies = new Map<string, Tally>();
  private readonly counter: Counter<LabelsOf<S>>;

  constructor(
    private readonly spec: S,
    registry: Registry,
  ) {
    if (spec.kind !== 'counter') throw new Error(`metric ${spec.name} is declared as a ${spec.kind}, made as a counter`);
    const tallies = this.tallies;
    this.counter = new Counter({
      name: spec.name,
      help: spec.help,
      labelNames: spec.labels as LabelsOf<S>[],
      registers: [registry],
      collect(this: Counter<LabelsOf<S>>) {
        for (const tally of tallies.values()) {
          const by = tally.take();
          // Only a finite, non-negative sum reaches prom-client: one that throws here would
          // fail the whole scrape. The tier adds durations and counts, never anything else.
          if (by !== undefined && Number.isFinite(by) && by >= 0) this.inc(tally.labels as Partial<Record<LabelsOf<S>, string>>, by);
        }
      },
    });
  }

  /**
   * The series of label `values`, in the spec's order; the same object for the same values.
   * A map look-up with a key made here: on a hot path, look it up once and keep it.
   */
  tally(...values: string[]): Tally {
    const key = values.join('\u0000');
    let tally = this.tallies.get(key);
    if (tally === undefined) {
      const { labels } = this.spec;
      if (values.length !== labels.length) throw new Error(`metric ${this.spec.name}: ${values.length} label values for ${labels.length} labels`);
      tally = new Tally(Object.fromEntries(labels.map((name, i) => [name, values[i] as string])));
      this.tallies.set(key, tally);
    }
    return tally;
  }
}
