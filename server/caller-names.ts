// The `caller_daemon` label of this replica's metrics: which daemon names it counts under
// their own name. The configured list (SFDB_CALLER_DAEMONS) always is; beyond it, a new
// valid name is admitted the first time it calls, first come first served, until
// SFDB_CALLER_DAEMONS_MAX names have been admitted; every later new name is counted as
// `other`, and a call that names no daemon (or no valid one) as `unknown`. So a daemon of
// one's own is counted under its name with no change to the tier, and the label holds at
// most |configured| + max + 2 values per replica process. Admissions are per process:
// each replica admits the names that call it, in the order they do, and forgets them
// when it stops.
import { isCallerDaemon } from '@sfdb/proto/metadata';

/** The label of a call that names no (valid) daemon. */
export const UNKNOWN_CALLER = 'unknown';
/** The label of every new name once the cap is reached. */
export const OTHER_CALLER = 'other';

export interface CallerNamesOptions {
  /** Counted under their own names, always (SFDB_CALLER_DAEMONS). */
  configured: ReadonlySet<string>;
  /** How many names beyond `configured` are admitted (SFDB_CALLER_DAEMONS_MAX); 0: none. */
  max: number;
  /** Told once per name admitted, with how many are admitted now. */
  onAdmitted?: (name: string, admitted: number) => void;
  /** Told once, for the first new name counted as `other`. */
  onCapReached?: (name: string) => void;
}

export class CallerNames {
  private readonly admitted = new Set<string>();
  private capReached = false;

  constructor(private readonly options: CallerNamesOptions) {}

  /**
   * The `caller_daemon` label of a call naming `daemon` (x-sfdb-caller-daemon as sent, or
   * '' / undefined): the name when configured or admitted (admitting it while there is
   * room), `other` past the cap, `unknown` for no name or one that is no valid name (the
   * `unknown` and `other` words themselves included, unless configured).
   */
  label(daemon: string | undefined): string {
    if (daemon === undefined || daemon === '') return UNKNOWN_CALLER;
    const { configured, max } = this.options;
    if (configured.has(daemon) || this.admitted.has(daemon)) return daemon;
    if (daemon === UNKNOWN_CALLER || daemon === OTHER_CALLER || !isCallerDaemon(daemon)) return UNKNOWN_CALLER;
    if (this.admitted.size < max) {
      this.admitted.add(daemon);
      this.options.onAdmitted?.(daemon, this.admitted.size);
      return daemon;
    }
    if (!this.capReached) {
      this.capReached = true;
      this.options.onCapReached?.(daemon);
    }
    return OTHER_CALLER;
  }

  /** Every name counted under its own: the configured ones, then those admitted, in order. */
  known(): string[] {
    return [...this.options.configured, ...this.admitted];
  }
}
