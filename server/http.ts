// HTTP endpoint: /metrics (Prometheus text, or OpenMetrics with exemplars when the scraper
// asks: proto/runtime/exposition.ts), /healthz (JSON), /readyz, and the read-only admin view
// under /admin (server/admin/, when on).
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { expose } from '@sfdb/proto/runtime/exposition';
import type { Metrics } from './metrics.js';

export interface HealthSource {
  /** JSON body of /healthz. */
  health(): Promise<Record<string, unknown>>;
  /** Ready to take calls: serving, not draining, database reachable. */
  ready(): Promise<{ ready: boolean; reason?: string }>;
}

/** The admin view's routes (server/admin/routes.ts), or undefined when it is off. */
export interface AdminHandler {
  handle(req: IncomingMessage, res: ServerResponse): void;
}

export function buildHttpServer(metrics: Metrics, source: HealthSource, admin?: AdminHandler): Server {
  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/admin' || path.startsWith('/admin/')) {
      if (admin) return admin.handle(req, res);
      res.writeHead(404, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
      return void res.end('not found: the admin view is off (SFDB_ADMIN=false)\n');
    }
    const send = (status: number, type: string, body: string): void => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    const fail = (err: unknown): void => send(500, 'text/plain', `error: ${(err as Error).message}\n`);
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain', 'method not allowed\n');
    if (path === '/metrics') {
      expose([metrics.registry], req.headers.accept).then((m) => send(200, m.contentType, m.body), fail);
    } else if (path === '/healthz') {
      source.health().then((body) => send(200, 'application/json', `${JSON.stringify(body)}\n`), fail);
    } else if (path === '/readyz') {
      source.ready().then((r) => send(r.ready ? 200 : 503, 'text/plain', r.ready ? 'ready\n' : `not ready: ${r.reason}\n`), fail);
    } else {
      send(404, 'text/plain', `not found: try /metrics, /healthz, /readyz${admin ? ', /admin' : ''}\n`);
    }
  });
}

export function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}
