#!/usr/bin/env node
// sf-daemon: runs one reference daemon for a node.
//   sf-daemon --daemon queues|cluster|agent --node <uuid> [--metrics-port N] [--metrics-host ADDR (127.0.0.1)]
// The tier is found from SFDB_TARGETS (default 127.0.0.1:13005); settings from SFDB_*
// (see daemons/settings.ts). --metrics-port also serves /healthz and /readyz (http.ts).
// Exit: 0 stopped (signal or operator), 1 failed, 2 bad usage.
//
// An operator stop (sf-ctl stop-daemon) ends the process with 0 and holds the daemon
// stopped; the supervisor restarts it (systemd Restart=always, a DaemonSet's pod) and the
// new process stays up, idle, held (it does not exit: that would be a crash loop), saying
// so on stdout, until `sf-ctl start-daemon`; then it runs.
import type { Server } from 'node:http';
import { parseArgs } from 'node:util';
import { Lifecycle, StartAbortedError, component, stopOnSignals } from '@sfdb/proto/runtime/lifecycle';
import { createLogger } from '@sfdb/proto/runtime/log';
import { tracingComponent } from '@sfdb/proto/runtime/tracing';
import { createClient } from '@sfdb/client';
import { UUID_PATTERN } from '@sfdb/proto/identity';
import { AgentDaemon } from './agent.js';
import { ClusterDaemon } from './cluster.js';
import type { DaemonHooks } from './hooks.js';
import { serveDaemonHttp } from './http.js';
import { startCommand } from './operator-hold.js';
import { QueuesDaemon } from './queues.js';
import { exampleHandlers } from './example-handlers.js';
import { DaemonSettingsError, daemonSettings, daemonTracing } from './settings.js';

const DAEMONS = ['queues', 'cluster', 'agent'] as const;
type DaemonName = (typeof DAEMONS)[number];

const USAGE = `usage: sf-daemon --daemon ${DAEMONS.join('|')} --node <uuid> [--metrics-port N] [--metrics-host ADDR]

Runs one reference daemon for a node, against the tier at SFDB_TARGETS (127.0.0.1:13005).
  --daemon NAME        queues (the example job handlers), cluster (maintenance), agent (heartbeats)
  --node UUID          the node it runs for (its daemon state, its caller identity)
  --metrics-port N     serve /metrics, /healthz and /readyz on this port (none without it)
  --metrics-host ADDR  their bind address (127.0.0.1)
  -h, --help           this help
Settings: SFDB_* (docs/settings.md, "Daemon settings"); SFDB_LOG_LEVEL=silent quiets it.
Traces: OTEL_TRACES_EXPORTER=otlp and the other OTEL_* variables (docs/tracing.md).
exit codes: 0 stopped (a signal, or an operator's stop), 1 failed, 2 bad usage
`;

function usage(message: string): never {
  process.stderr.write(`sf-daemon: ${message}\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: { daemon: { type: 'string' }, node: { type: 'string' }, 'metrics-port': { type: 'string' }, 'metrics-host': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (err) {
    usage((err as Error).message);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const name = values.daemon as DaemonName | undefined;
  if (!name || !DAEMONS.includes(name)) usage(`--daemon must be one of ${DAEMONS.join(', ')}`);
  const nodeUuid = values.node ?? '';
  if (!UUID_PATTERN.test(nodeUuid)) usage('--node must be a lower-case uuid');

  let settings;
  let tracing;
  try {
    settings = daemonSettings();
    tracing = daemonTracing();
  } catch (err) {
    if (err instanceof DaemonSettingsError) usage(err.message);
    throw err;
  }
  const db = createClient({ callerDaemon: name, callerNode: nodeUuid });
  const hooks: DaemonHooks = {
    operatorHold: (held) =>
      process.stdout.write(
        held
          ? `sf-daemon ${name} held stopped by an operator for node ${nodeUuid}: waiting for \`${startCommand(nodeUuid, name)}\`\n`
          : `sf-daemon ${name} released by an operator for node ${nodeUuid}: starting\n`,
      ),
  };
  let daemon: QueuesDaemon | ClusterDaemon | AgentDaemon;
  if (name === 'queues') {
    daemon = new QueuesDaemon({ name, nodeUuid, db, settings, hooks });
    for (const [queue, handler] of Object.entries(exampleHandlers)) daemon.handle(queue, handler);
  } else if (name === 'cluster') {
    daemon = new ClusterDaemon({ name, nodeUuid, db, settings, hooks });
  } else {
    daemon = new AgentDaemon({ name, nodeUuid, db, settings, hooks });
  }

  const port = values['metrics-port'];
  if (port !== undefined && !/^\d{1,5}$/.test(port)) usage('--metrics-port must be a port number');
  // Loopback unless told otherwise: a Prometheus elsewhere needs the pod's or host's address.
  const metricsHost = values['metrics-host'] ?? '127.0.0.1';

  // The process's parts, started in order and stopped in reverse (proto/runtime/lifecycle.ts):
  // tracing (when OTEL_TRACES_EXPORTER asks), the client, the metrics and health port, the
  // daemon. A signal stops the daemon the way an operator sees it (STOPPING, then
  // STOPPED), then the port and the client; tracing last, flushing what they traced.
  let signal: NodeJS.Signals = 'SIGTERM';
  let metricsServer: Server | undefined;
  const log = createLogger(settings.logLevel, { daemon: name, node: nodeUuid });
  const lifecycle = new Lifecycle().add(
    tracingComponent(tracing, { instance: `${name}@${nodeUuid}`, log }),
    component('client', () => undefined, () => db.close()),
    // The framework's metrics and the client's (cache, change feed) in one scrape; health.
    component(
      'http',
      () => (metricsServer = port === undefined ? undefined : serveDaemonHttp(daemon, Number(port), metricsHost)),
      () => metricsServer?.close(),
    ),
    // A stop while starting (retrying, or held by an operator) ends the start too.
    component(
      'daemon',
      (aborted) => {
        aborted.addEventListener('abort', () => void daemon.stopForSignal(signal), { once: true });
        return daemon.start();
      },
      () => daemon.stopForSignal(signal),
    ),
  );
  const signals = stopOnSignals(lifecycle, {
    onSignal: (received, second) => {
      signal = received;
      if (second) process.stderr.write(`sf-daemon: second ${received}: exiting now\n`);
    },
  });
  void daemon.done.then((reason) => process.stdout.write(`sf-daemon ${name} stopped (${reason})\n`));
  try {
    await lifecycle.start();
  } catch (err) {
    if (err instanceof StartAbortedError) return signals.exitCode;
    process.stderr.write(`sf-daemon: ${(err as Error).message}\n`);
    return 1;
  }
  // start() also returns when the daemon was stopped while an operator held it.
  if (daemon.snapshot().state !== 'stopped') process.stdout.write(`sf-daemon ${name} running for node ${nodeUuid}\n`);
  // Stopped by an operator (the daemon ends itself) or by a signal (the lifecycle ends it).
  const ended = daemon.done.then(() => lifecycle.stop()).then(
    () => 0,
    () => 1,
  );
  return Promise.race([ended, signals.exitCode]);
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`sf-daemon: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
