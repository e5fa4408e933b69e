// `npm run bench:faults`: faults under load, with a ledger. A private MariaDB, two real
// replicas, a steady mixed load of checkable writes from several clients; MariaDB
// SIGKILLed and SIGSTOPped, a replica SIGTERMed and another SIGKILLed, connections aged
// out, and the network between the replicas and MariaDB (a proxy) slowed, blackholed and
// reset; per fault the calls that failed, the time to the first acknowledged write after
// it and the acknowledged writes MariaDB does not hold (must be 0); then the ledger's
// invariants, and whether a replica started after the clients connected gets traffic;
// last, a deposed holder (deposed-holder.ts): a lease holder paused past its lease and
// taken over, whose every write after its resume must be refused Fenced, none landed.
// Prints a table and writes bench/results/faults-<date>.json. Everything it started is
// stopped, and its directory removed, on exit, on error and on Ctrl-C (the processes are
// a part of the run's lifecycle, harness/main.ts).
//
//   npm run bench:faults [-- --phase-s 10 --clients 6 --loops 2 --deadline-ms 2000 --age-ms 2000
//                           --blackhole-s 20 --phases steady,db-latency,... --ledger FILE
//                           --no-new-replica --no-deposed --no-write]
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { component } from '../../proto/runtime/lifecycle.js';
import { describeMachine, load1 } from '../../harness/machine.js';
import { runBench } from '../../harness/main.js';
import { deposedProblems, runDeposedOn } from './deposed-holder.js';
import { runFaults } from './driver.js';
import type { FaultRunOptions } from './driver.js';
import { FaultProcesses } from './processes.js';
import { problems, renderSummary, renderTable, saveRun } from './report.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);

function say(message: string): void {
  process.stderr.write(`bench:faults: ${message}\n`);
}

function options(): Omit<FaultRunOptions, 'log'> & { write: boolean; deposed: boolean } {
  const { values } = parseArgs({
    options: {
      'phase-s': { type: 'string', default: '10' },
      clients: { type: 'string', default: '6' },
      loops: { type: 'string', default: '2' },
      'deadline-ms': { type: 'string', default: '2000' },
      'age-ms': { type: 'string', default: '2000' },
      'blackhole-s': { type: 'string', default: '20' },
      phases: { type: 'string' },
      'no-write': { type: 'boolean', default: false },
      'no-new-replica': { type: 'boolean', default: false },
      'no-deposed': { type: 'boolean', default: false },
      ledger: { type: 'string' },
    },
  });
  const num = (name: string, raw: string, min: number): number => {
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min) throw new Error(`--${name}: "${raw}" is not a number ≥ ${min}`);
    return n;
  };
  const deadlineMs = Math.floor(num('deadline-ms', values['deadline-ms'], 500));
  // Longer than the deadline, the watchdog's grace and the connect timeout: runFaults refuses a shorter one.
  const blackholeMs = num('blackhole-s', values['blackhole-s'], 1) * 1000;
  // Unknown names are refused by runFaults, before anything starts.
  const phases = values.phases?.split(',').map((p) => p.trim());
  return {
    phaseMs: num('phase-s', values['phase-s'], 1) * 1000,
    clients: Math.floor(num('clients', values.clients, 1)),
    loopsPerClient: Math.floor(num('loops', values.loops, 1)),
    deadlineMs,
    stopMs: deadlineMs + 1500,
    blackholeMs,
    ...(phases ? { faults: phases } : {}),
    ageMs: Math.floor(num('age-ms', values['age-ms'], 1000)),
    graceMs: 31_000,
    newReplica: !values['no-new-replica'],
    ...(values.ledger !== undefined ? { ledgerFile: resolve(values.ledger) } : {}),
    write: !values['no-write'],
    deposed: !values['no-deposed'],
  };
}

runBench('bench:faults', async (bench) => {
  const { write, deposed: runDeposed, ...opts } = options();
  const date = new Date().toISOString();
  const loadBefore = load1();
  // The directory, MariaDB and the replicas, started by the run (runFaults).
  const procs = new FaultProcesses(say);
  bench.add(component('fault processes', () => undefined, () => procs.stop()));
  await bench.start();
  const result = await runFaults(procs, { ...opts, log: say });
  const command = `npm run bench:faults${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  process.stdout.write(`\n${command}   (${date.slice(0, 16).replace('T', ' ')} UTC, load ${loadBefore} → ${load1()})\n\n${renderTable(result)}\n\n${renderSummary(result)}\n`);
  const deposed = runDeposed ? await runDeposedOn(procs, say) : undefined;
  if (deposed) {
    process.stdout.write(
      `\ndeposed holder: paused ${deposed.pausedMs} ms, token ${deposed.holderToken} → ${deposed.rivalToken}; ${deposed.writtenBeforePause} written before the pause; after the resume ${deposed.fencedAfterResume} of ${deposed.sentAfterResume} refused Fenced, ${deposed.writtenAfterResume} written, ${deposed.refusedButLanded.length} refused but landed\n`,
    );
  }
  const trouble = [...problems(result), ...(deposed ? deposedProblems(deposed) : [])];
  for (const line of trouble) process.stdout.write(`PROBLEM: ${line}\n`);
  if (write) {
    const path = saveRun(join(ROOT, 'bench', 'results'), { command, date, machine: describeMachine(), loadBefore, loadAfter: load1(), result, ...(deposed ? { deposed } : {}) });
    say(`wrote ${path}`);
  }
  return trouble.length === 0 ? 0 : 1;
});
