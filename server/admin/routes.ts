// The admin view over HTTP, under /admin on the tier's HTTP port: read-only (GET and HEAD;
// anything else 405), behind the access check (access.ts), every request logged with its
// identity once answered. Pages are server-rendered HTML; `?fragment=main` answers a
// page's <main> alone (the live module's refresh); /admin/api/* answers JSON.
//
//   /admin/cluster, /admin/load, /admin/coordination, /admin/objects?namespace=&type=&after=&limit=
//   /admin/api/changes?cursor=&view=cluster | &topics=a,b   the long-poll over the change feed
//   /admin/api/nodes?uuids=a,b                             node cards after a daemon-state change
//   /admin/api/objects?namespace=&type=&uuids=a,b          changed rows of an Objects page
//   /admin/api/replica                                     this replica's version, calls in flight, waiters
//   /admin/admin.css, /admin/live.js                       the stylesheet and the live module
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { InvalidArgumentError, ResourceExhaustedError } from '../errors.js';
import type { Logger } from '@sfdb/proto/runtime/log';
import { AdminAccess, loggedPath } from './access.js';
import { liveModule, STYLESHEET } from './assets.js';
import { esc } from './html.js';
import type { PageName } from './html.js';
import { AdminView } from './view.js';
import type { AdminDeps, Page } from './view.js';

const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
} as const;

const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

function refusal(status: number, reason: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${status} · sf-database admin</title></head>
<body><main><h1>${status === 401 ? 'Admin token required' : 'Not allowed'}</h1><p>${esc(reason)}.</p>
<p>Open <code>/admin?token=…</code> once with the replica's <code>SFDB_ADMIN_TOKEN</code> (a cookie keeps you in), or send
<code>Authorization: Bearer …</code>.</p></main></body></html>\n`;
}

export class AdminRoutes {
  readonly view: AdminView;
  private readonly access: AdminAccess;

  constructor(
    deps: AdminDeps,
    private readonly log: Logger,
  ) {
    this.view = new AdminView(deps);
    this.access = new AdminAccess(deps.config.adminToken);
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now();
    const url = new URL(req.url ?? '/', 'http://admin.invalid');
    let identity = 'none';
    res.on('finish', () => {
      const entry = { method: req.method, path: loggedPath(url), status: res.statusCode, identity, remote: req.socket.remoteAddress, ms: Math.round(performance.now() - started) };
      if (res.statusCode === 401 || res.statusCode === 403 || res.statusCode === 405) this.log.warn({ admin: entry }, 'admin request refused');
      else this.log.info({ admin: entry }, 'admin request');
    });
    const send = (status: number, type: string, body: string, headers: Record<string, string> = {}): void => {
      if (res.headersSent) return void res.end();
      res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, ...headers });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(405, 'text/plain; charset=utf-8', 'method not allowed: the admin view is read-only (GET)\n', { allow: 'GET, HEAD' });
    }
    const access = this.access.check(req, url);
    if (!access.ok) {
      const headers: Record<string, string> = access.status === 401 ? { 'www-authenticate': 'Bearer realm="sf-database admin"' } : {};
      return send(access.status, HTML, refusal(access.status, access.reason), headers);
    }
    identity = access.via ? `${access.identity}:${access.via}` : access.identity;
    const cookie: Record<string, string> = access.setCookie ? { 'set-cookie': access.setCookie } : {};
    const path = url.pathname.replace(/\/+$/, '') || '/admin';
    if (access.via === 'query' && !path.startsWith('/admin/api/')) {
      // The token leaves the address bar (and history) at once; the cookie carries on.
      const params = new URLSearchParams(url.searchParams);
      params.delete('token');
      const target = `${path === '/admin' ? '/admin/cluster' : path}${params.size > 0 ? `?${params.toString()}` : ''}`;
      return send(303, 'text/plain; charset=utf-8', '', { ...cookie, location: target });
    }
    const fail = (err: unknown): void => {
      if (err instanceof InvalidArgumentError) return send(400, JSON_TYPE, `${JSON.stringify({ error: err.message, field: err.field })}\n`);
      if (err instanceof ResourceExhaustedError) return send(503, JSON_TYPE, `${JSON.stringify({ error: err.message })}\n`, { 'retry-after': '1' });
      this.log.warn({ err: (err as Error).message, path: url.pathname }, 'admin request failed');
      send(500, 'text/plain; charset=utf-8', 'error: the admin view could not read what it needs (see the replica log)\n');
    };
    const json = (p: Promise<unknown>): void => void p.then((body) => send(200, JSON_TYPE, `${JSON.stringify(body)}\n`, cookie), fail);
    const page = (name: PageName, p: Promise<Page>): void =>
      void p.then((pg) => send(200, HTML, url.searchParams.get('fragment') === 'main' ? pg.main : this.view.render(name, pg), cookie), fail);
    const v = this.view;
    switch (path) {
      case '/admin':
        return send(302, 'text/plain; charset=utf-8', '', { ...cookie, location: '/admin/cluster' });
      case '/admin/admin.css':
        return send(200, 'text/css; charset=utf-8', STYLESHEET);
      case '/admin/live.js':
        return void liveModule().then((js) => send(200, 'text/javascript; charset=utf-8', js), fail);
      case '/admin/cluster':
        return page('cluster', v.cluster());
      case '/admin/load':
        return page('load', v.loadPage());
      case '/admin/coordination':
        return page('coordination', v.coordination());
      case '/admin/objects':
        return page('objects', v.objects(url.searchParams));
      case '/admin/api/replica':
        return json(v.replicaInfo());
      case '/admin/api/nodes':
        return json(v.nodeCards(url.searchParams));
      case '/admin/api/objects':
        return json(v.objectRows(url.searchParams));
      case '/admin/api/changes': {
        const abort = new AbortController();
        res.on('close', () => abort.abort());
        return json(v.changes(url.searchParams, abort.signal));
      }
      default:
        return send(404, 'text/plain; charset=utf-8', 'not found: try /admin/cluster, /admin/load, /admin/coordination, /admin/objects\n');
    }
  }
}
