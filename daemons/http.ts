// sf-daemon's HTTP port (--metrics-port): the framework's and the client's metrics in one
// scrape, and its health for a supervisor's probes.
//   /healthz  200 while the process answers, with what it does (JSON): liveness
//   /readyz   200 once it runs, or waits held stopped by an operator; 503 while it starts
//             (the node not resolved yet, or the tier not answering) and once it stopped
//   anything else: the metrics (Prometheus text, or OpenMetrics when the scraper asks:
//             proto/runtime/exposition.ts)
// A held daemon is ready: it does what an operator asked. Were it not, a DaemonSet's
// rolling update would wait on every node where an operator stopped the daemon.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { clientRegistry } from '@sfdb/client';
import { expose } from '@sfdb/proto/runtime/exposition';
import type { Daemon } from './daemon.js';
import { daemonRegistry } from './metrics.js';

/** The states /readyz answers 200 for. */
const READY: readonly string[] = ['running', 'held'];

export function serveDaemonHttp(daemon: Pick<Daemon, 'name' | 'nodeUuid' | 'snapshot'>, port: number, host: string): Server {
  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz' || path === '/readyz') {
      const { state } = daemon.snapshot();
      const ok = path === '/healthz' || READY.includes(state);
      res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
      res.end(`${JSON.stringify({ daemon: daemon.name, node: daemon.nodeUuid, state, operatorHold: state === 'held' })}\n`);
      return;
    }
    expose([daemonRegistry, clientRegistry], req.headers.accept).then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'content-type': contentType });
        res.end(body);
      },
      () => {
        res.writeHead(500);
        res.end();
      },
    );
  }).listen(port, host);
}
