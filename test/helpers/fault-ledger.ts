// The fault ledger of `npm run bench:faults` (bench/faults/) at the chaos tests' shape:
// short steady phases, three clients of two write loops each, a 2 s call deadline. Each
// chaos test names its faults and whatever else it needs on top.
import { finished, phaseNamed, runFaults } from '../../bench/faults/driver.js';
import type { FaultRunOptions, FaultRunResult, PhaseResult } from '../../bench/faults/driver.js';
import { FaultProcesses } from '../../bench/faults/processes.js';

/** The clients' call deadline, retries included. */
export const LEDGER_DEADLINE_MS = 2000;

/** A chaos test's ledger run: its processes (stop them after), its log, its result once ran. */
export class LedgerRun {
  readonly log: string[] = [];
  procs: FaultProcesses | undefined;
  private result: FaultRunResult | undefined;

  /** Starts the processes and runs the faults; `options` over the chaos shape. */
  async run(options: Partial<FaultRunOptions> & Pick<FaultRunOptions, 'faults' | 'newReplica' | 'ageMs'>): Promise<FaultRunResult> {
    this.procs = new FaultProcesses((m) => this.log.push(m));
    this.result = await runFaults(this.procs, {
      phaseMs: 2500,
      clients: 3,
      loopsPerClient: 2,
      deadlineMs: LEDGER_DEADLINE_MS,
      stopMs: LEDGER_DEADLINE_MS + 1500,
      // The tier requires a grace above the longest long-poll (30 s); it only matters for
      // calls still running on an aged-out connection, new calls move at once.
      graceMs: 31_000,
      log: (m) => this.log.push(`${new Date().toISOString().slice(11, 23)} ${m}`),
      ...options,
    });
    return this.result;
  }

  /** The result, or a failure that shows the log when the run did not finish. */
  finished(): FaultRunResult {
    return finished(this.result, this.log);
  }

  phase(name: string): PhaseResult {
    return phaseNamed(this.finished(), name);
  }

  async stop(): Promise<void> {
    await this.procs?.stop();
  }
}
