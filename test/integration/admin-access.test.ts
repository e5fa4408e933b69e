// The admin view's access rules, over plain HTTP against a real tier: off beyond loopback
// without a token (the start is refused), the token by header, by `?token=` once (then a
// cookie: HttpOnly, SameSite=Strict) and nothing else; read-only (every other method 405);
// every request logged with its identity and never the token.
import { Writable } from 'node:stream';
import { describe, expect, it, afterAll, beforeAll } from 'vitest';
import { ConfigError, parseConfig } from '../../server/config.js';
import { createLogger } from '../../proto/runtime/log.js';
import { Tier } from '../../server/tier.js';
import { createTestDatabase, dropTestDatabase, mariadbUrl, testConfig } from '../helpers/tier.js';
import { waitFor } from '../helpers/wait.js';

const TOKEN = 'test-admin-token-0123456789abcdef';

describe('admin settings', () => {
  it('refuses an HTTP bind beyond loopback without a token, and names the way out', () => {
    const beyond = { SFDB_HTTP_HOST: '0.0.0.0', SFDB_INSECURE: 'true' };
    expect(() => parseConfig(beyond, [])).toThrow(ConfigError);
    expect(() => parseConfig(beyond, [])).toThrow(/SFDB_ADMIN_TOKEN.*SFDB_ADMIN=false/);
    expect(parseConfig({ ...beyond, SFDB_ADMIN_TOKEN: TOKEN }, []).adminToken).toBe(TOKEN);
    expect(parseConfig({ ...beyond, SFDB_ADMIN: 'false' }, []).admin).toBe(false);
    // Loopback needs none: the view answers loopback clients only.
    expect(parseConfig({}, []).adminToken).toBe('');
    expect(parseConfig({}, []).admin).toBe(true);
  });

  it('refuses a weak token without echoing it', () => {
    let message = '';
    try {
      parseConfig({ SFDB_ADMIN_TOKEN: 'short secret' }, []);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/SFDB_ADMIN_TOKEN.*16-512/);
    expect(message).not.toContain('short secret');
  });
});

describe('admin access with a token', () => {
  let tier: Tier;
  let database: string;
  let base: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig({ SFDB_ADMIN_TOKEN: TOKEN, SFDB_LOG_LEVEL: 'info' });
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        logLines.push(...chunk.toString().split('\n').filter((l) => l !== ''));
        done();
      },
    });
    tier = await Tier.start(config, mariadbUrl(database), createLogger('info', {}, sink));
    base = `http://127.0.0.1:${tier.httpPort}`;
  });
  afterAll(async () => {
    await tier.stop();
    await dropTestDatabase(database);
  });

  const get = (path: string, headers: Record<string, string> = {}): Promise<Response> => fetch(`${base}${path}`, { headers, redirect: 'manual' });

  it('refuses a request without the token, even from loopback', async () => {
    for (const path of ['/admin', '/admin/cluster', '/admin/api/replica', '/admin/live.js', '/admin/api/changes?view=cluster&cursor=']) {
      const res = await get(path);
      expect(res.status, path).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    expect((await get('/admin/cluster', { authorization: 'Bearer wrong-token-0123456789' })).status).toBe(401);
    expect((await get('/admin/cluster?token=wrong-token-0123456789')).status).toBe(401);
    expect((await get('/admin/cluster', { cookie: 'sfdb_admin=forged' })).status).toBe(401);
    // The rest of the HTTP port is as before.
    expect((await get('/metrics')).status).toBe(200);
  });

  it('lets the token in by header, and by ?token= once, then by an HttpOnly SameSite=Strict cookie', async () => {
    expect((await get('/admin/cluster', { authorization: `Bearer ${TOKEN}` })).status).toBe(200);

    const first = await get(`/admin/objects?namespace=ns&token=${TOKEN}`);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/admin/objects?namespace=ns');
    const cookie = first.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^sfdb_admin=[0-9a-f]{64}; Path=\/admin; HttpOnly; SameSite=Strict$/);
    expect(cookie).not.toContain(TOKEN);
    const page = await get('/admin/cluster', { cookie: cookie.split(';')[0] as string });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('<h1>Cluster</h1>');
  });

  it('is read-only: every other method is 405', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await fetch(`${base}/admin/cluster`, { method, headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
    }
  });

  it('logs every admin request with its identity, never the token', async () => {
    await get('/admin/cluster', { authorization: `Bearer ${TOKEN}` });
    await get(`/admin/load?token=${TOKEN}`);
    await get('/admin/coordination');
    type Logged = { admin?: { path: string; identity: string; status: number }; msg: string };
    const expected: [string, (l: Logged) => boolean][] = [
      ['cluster by header', (l) => l.admin?.path === '/admin/cluster' && l.admin.identity === 'token:header' && l.admin.status === 200],
      ['load by query', (l) => l.admin?.path === '/admin/load?token=%28redacted%29' && l.admin.identity === 'token:query' && l.admin.status === 303],
      ['coordination refused', (l) => l.admin?.path === '/admin/coordination' && l.admin.identity === 'none' && l.admin.status === 401 && l.msg === 'admin request refused'],
    ];
    // Each request is logged once its answer is handed to the socket, which can come after
    // the client has read it. Timing: the lines waited for, not a fixed 100 ms.
    await waitFor('the three admin requests logged', 10_000, () => {
      const admin = logLines.map((l) => JSON.parse(l) as Logged).filter((l) => l.admin);
      const missing = expected.filter(([, match]) => !admin.some(match)).map(([what]) => what);
      return { ok: missing.length === 0, seen: { missing, logged: admin.map((l) => l.admin) } };
    });
    expect(logLines.join('\n')).not.toContain(TOKEN);
  });
});

describe('admin view turned off', () => {
  it('answers 404 under /admin and serves the rest', async () => {
    const database = await createTestDatabase();
    const tier = await Tier.start(testConfig({ SFDB_ADMIN: 'false' }), mariadbUrl(database), createLogger('silent'));
    try {
      const res = await fetch(`http://127.0.0.1:${tier.httpPort}/admin/cluster`);
      expect(res.status).toBe(404);
      expect(await res.text()).toMatch(/SFDB_ADMIN=false/);
      expect((await fetch(`http://127.0.0.1:${tier.httpPort}/healthz`)).status).toBe(200);
    } finally {
      await tier.stop();
      await dropTestDatabase(database);
    }
  });
});

describe('admin budget setting', () => {
  it('shows rates unjudged, saying why, when the budget file cannot be read', async () => {
    const database = await createTestDatabase();
    const tier = await Tier.start(testConfig({ SFDB_ADMIN_BUDGET: '/nonexistent/budget.json' }), mariadbUrl(database), createLogger('silent'));
    try {
      const html = await (await fetch(`http://127.0.0.1:${tier.httpPort}/admin/load`)).text();
      expect(html).toContain('Budget /nonexistent/budget.json unavailable (ENOENT)');
    } finally {
      await tier.stop();
      await dropTestDatabase(database);
    }
  });
});
