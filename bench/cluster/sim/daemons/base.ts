// The base of the simulated daemons that are not a framework class of their own
// (transfers, sidechannel, resources, cleaner): a framework Daemon with the simulator's
// hooks (operator-stop notice, the mode's idle) and the whole client.
import type { DatabaseClient } from '../../../../client/index.js';
import { Daemon } from '../../../../daemons/index.js';
import type { DaemonOptions, PeriodicTask, StopReason } from '../../../../daemons/index.js';
import { SimHooks } from '../hooks.js';
import type { SimContext } from '../hooks.js';

export abstract class SimDaemon extends Daemon<DatabaseClient> {
  private readonly hooks: SimHooks;

  constructor(
    options: DaemonOptions<DatabaseClient>,
    protected readonly sim: SimContext,
  ) {
    super(options);
    this.hooks = new SimHooks(sim, this.clock);
  }

  /** The daemon's own periodic calls (the hooks add theirs). */
  protected abstract simTasks(): Omit<PeriodicTask, 'daemon'>[];

  protected override periodicTasks(): Omit<PeriodicTask, 'daemon'>[] {
    return [...this.simTasks(), ...this.hooks.tasks()];
  }

  protected override idle(ms: number): Promise<void> {
    return this.hooks.idle(ms, (m) => super.idle(m), () => this.stopping, (err) => this.countError(err));
  }

  override requestStop(reason: StopReason): void {
    this.hooks.stopRequested(reason, this.stopping);
    super.requestStop(reason);
  }
}
