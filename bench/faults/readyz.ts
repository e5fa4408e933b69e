// What a load balancer would have seen of a fault: every replica's /readyz, polled through
// the phase, and summed up for the fault's window and the time after it ended.
import type { FaultProcesses } from './processes.js';

export interface ReadyzSample {
  replica: string;
  /** Wall ms the probe was sent and answered. */
  sentAt: number;
  answeredAt: number;
  /** The HTTP status; 0: no answer (refused, or none within the probe's timeout). */
  status: number;
  /** What a 503 said ('not ready: database: unreachable for 8012 ms'). */
  body: string;
}

export interface ReadyzSummary {
  /** Probes sent and answered within the fault, by status ('200', '503', '0' = no answer). */
  duringFault: Record<string, number>;
  /** The fault's start → the first 503 answered, over the replicas (null: none). */
  first503Ms: number | null;
  /**
   * The fault's start → every replica has judged MariaDB unreachable (its /readyz says
   * "unreachable for", from SFDB_DATABASE_DOWN_AFTER_MS on; its gRPC health is NOT_SERVING
   * from the same judgement); null: some replica never did within the fault.
   */
  judgedDownMs: number | null;
  /** The fault's end → every replica answers 200 again (null: not within the phase). */
  readyAfterEndMs: number | null;
}

/** The probe's own bound: /readyz answers within SFDB_READYZ_TIMEOUT_MS (1 s) whatever MariaDB does. */
const PROBE_TIMEOUT_MS = 3000;
const EVERY_MS = 200;

export class ReadyzWatch {
  readonly samples: ReadyzSample[] = [];
  private running = true;
  private readonly loop: Promise<void>;

  constructor(private readonly procs: FaultProcesses) {
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    while (this.running) {
      // The replicas running now (not the new-replica check's control, stopped): a replaced
      // one is polled on its (same) port.
      const running = this.procs.replicas.filter((r) => r.proc.exitCode === null && r.proc.signalCode === null);
      await Promise.all(running.map((r) => this.probe(r.name, r.httpPort)));
      await new Promise((r) => setTimeout(r, EVERY_MS));
    }
  }

  private async probe(replica: string, port: number): Promise<void> {
    const sentAt = Date.now();
    let status = 0;
    let body = '';
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      status = res.status;
      body = (await res.text()).trim();
    } catch {
      // refused (a replica being replaced) or no answer in time: 0
    }
    this.samples.push({ replica, sentAt, answeredAt: Date.now(), status, body });
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  /** The fault held [at, endAt]; the phase ran until `phaseEnd`. */
  summary(at: number, endAt: number, phaseEnd: number): ReadyzSummary {
    const duringFault: Record<string, number> = {};
    let first503: number | undefined;
    for (const s of this.samples) {
      if (s.sentAt >= at && s.answeredAt <= endAt) duringFault[String(s.status)] = (duringFault[String(s.status)] ?? 0) + 1;
      if (s.status === 503 && s.answeredAt >= at && s.answeredAt <= endAt) first503 = Math.min(first503 ?? Infinity, s.answeredAt);
    }
    // Every replica's first 200 to a probe sent after the end, none of its later probes
    // failing; and its first "unreachable" during the fault.
    let readyAt: number | null = endAt;
    let judgedDownAt: number | null = at;
    for (const replica of new Set(this.samples.map((s) => s.replica))) {
      const judged = this.samples.find((s) => s.replica === replica && s.answeredAt >= at && s.answeredAt <= endAt && s.body.includes('unreachable for'));
      judgedDownAt = judged && judgedDownAt !== null ? Math.max(judgedDownAt, judged.answeredAt) : null;
      const after = this.samples.filter((s) => s.replica === replica && s.sentAt >= endAt && s.answeredAt <= phaseEnd);
      const lastBad = after.reduce((t, s) => (s.status === 200 ? t : Math.max(t, s.answeredAt)), -1);
      const firstGood = after.find((s) => s.status === 200 && s.answeredAt > lastBad);
      readyAt = firstGood && readyAt !== null ? Math.max(readyAt, firstGood.answeredAt) : null;
    }
    return {
      duringFault,
      first503Ms: first503 === undefined ? null : first503 - at,
      judgedDownMs: judgedDownAt === null ? null : judgedDownAt - at,
      readyAfterEndMs: readyAt === null ? null : readyAt - endAt,
    };
  }
}
