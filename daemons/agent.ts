// The node agent: a node heartbeat with stats (load, memory, uptime, process count)
// every nodeHeartbeatMs, recorded by database time.
import { readdirSync } from 'node:fs';
import { freemem, loadavg, totalmem, uptime } from 'node:os';
import type { DatabaseClient } from '@sfdb/client';
import { Daemon } from './daemon.js';
import type { DaemonDb } from './types.js';
import type { PeriodicTask } from './periodic.js';

export type AgentDb = DaemonDb & Pick<DatabaseClient, 'nodeHeartbeat'>;

export interface NodeStats {
  load1: number;
  load5: number;
  load15: number;
  memoryTotalBytes: number;
  memoryFreeBytes: number;
  uptimeSeconds: number;
  processes: number;
}

/** This machine's stats; the process count from /proc (0 where there is none). */
export function nodeStats(): NodeStats {
  const [load1 = 0, load5 = 0, load15 = 0] = loadavg();
  let processes = 0;
  try {
    processes = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).length;
  } catch {
    processes = 0;
  }
  return {
    load1,
    load5,
    load15,
    memoryTotalBytes: totalmem(),
    memoryFreeBytes: freemem(),
    uptimeSeconds: Math.round(uptime()),
    processes,
  };
}

export class AgentDaemon extends Daemon<AgentDb> {
  private beats = 0;

  protected override periodicTasks(): Omit<PeriodicTask, 'daemon'>[] {
    return [
      {
        task: 'node-heartbeat',
        operation: 'NodeHeartbeat',
        intervalMs: this.settings.nodeHeartbeatMs,
        scale: 'process',
        duty: 'keep this node live, with its stats',
      },
    ];
  }

  protected async step(): Promise<number> {
    try {
      // Every step beats: each is an iteration that did work, traced.
      await this.db.nodeHeartbeat(this.nodeUuid, nodeStats(), { trace: this.trace });
      this.beats += 1;
    } catch (err) {
      this.countError(err);
    }
    return this.settings.nodeHeartbeatMs;
  }

  override snapshot(): ReturnType<Daemon['snapshot']> & { beats: number } {
    return { ...super.snapshot(), beats: this.beats };
  }
}
