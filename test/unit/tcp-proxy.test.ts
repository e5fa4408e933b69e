// The fault proxy (harness/tcp-proxy.ts) against a tiny echo server: it forwards,
// latency delays each way, a blackhole holds everything (on old and new connections) and
// releases it in order, a reset is seen as ECONNRESET, and stop leaves nothing open.
import { connect, createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TcpProxy } from '../../harness/tcp-proxy.js';

let echo: Server;
let echoPort = 0;
/** Everything the echo server received, over all connections. */
let echoed = '';
let proxy: TcpProxy;
const sockets: Socket[] = [];

beforeAll(async () => {
  echo = createServer((s) => {
    // The proxy's resets reach the echo's side too.
    s.on('error', () => undefined);
    s.on('data', (d: Buffer) => (echoed += d.toString()));
    s.pipe(s);
  });
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
  echoPort = (echo.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((r) => echo.close(() => r()));
});

afterEach(async () => {
  echoed = '';
  for (const s of sockets.splice(0)) s.destroy();
  await proxy?.stop();
});

async function started(): Promise<TcpProxy> {
  proxy = new TcpProxy({ host: '127.0.0.1', port: echoPort });
  await proxy.start();
  return proxy;
}

/** A client of the proxy, everything it receives collected. */
async function client(): Promise<{ socket: Socket; received: () => string; until: (text: string) => Promise<void> }> {
  const socket = connect({ host: '127.0.0.1', port: proxy.port });
  sockets.push(socket);
  await new Promise<void>((r) => socket.once('connect', () => r()));
  let text = '';
  const waiters = new Set<() => void>();
  socket.on('data', (d: Buffer) => {
    text += d.toString();
    for (const w of waiters) w();
  });
  return {
    socket,
    received: () => text,
    // Bounded by the test's timeout: what the proxy delivers, not a sleep.
    until: (want) =>
      new Promise<void>((resolve) => {
        const check = (): void => {
          if (!text.includes(want)) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
  };
}

describe('tcp proxy', () => {
  it('forwards both ways and counts the connections it accepted', async () => {
    await started();
    const a = await client();
    const b = await client();
    a.socket.write('hello');
    b.socket.write('world');
    await Promise.all([a.until('hello'), b.until('world')]);
    expect(proxy.accepted).toBe(2);
  });

  it('latency delays each direction: a round trip takes at least twice the delay, in order', async () => {
    await started();
    const c = await client();
    proxy.setLatency(400);
    const sent = performance.now();
    c.socket.write('a');
    c.socket.write('b');
    c.socket.write('c');
    await c.until('abc');
    expect(performance.now() - sent).toBeGreaterThanOrEqual(800);
    proxy.setLatency(0);
    const again = performance.now();
    c.socket.write('d');
    await c.until('abcd');
    // Back to nothing added (a bound on a loaded machine, far under the 400 ms delay × 2).
    expect(performance.now() - again).toBeLessThan(800);
  });

  it('a blackhole holds everything, on open and new connections, and releases it in order when it ends', async () => {
    await started();
    const old = await client();
    old.socket.write('1');
    await old.until('1');
    proxy.blackhole(true);
    old.socket.write('2');
    old.socket.write('3');
    const fresh = await client(); // accepted, though nothing crosses
    fresh.socket.write('x');
    // The echo would have answered within this long; held, it has not.
    await new Promise((r) => setTimeout(r, 300));
    expect(old.received()).toBe('1');
    expect(fresh.received()).toBe('');
    expect(old.socket.destroyed || fresh.socket.destroyed).toBe(false);
    expect(proxy.accepted).toBe(2);
    proxy.blackhole(false);
    await Promise.all([old.until('123'), fresh.until('x')]);
    expect(old.received()).toBe('123');
  });

  it('resetAll ends every connection with a reset (ECONNRESET), and a new connection works after it', async () => {
    await started();
    const c = await client();
    c.socket.write('ping');
    await c.until('ping');
    const failed = new Promise<NodeJS.ErrnoException>((r) => c.socket.once('error', r));
    proxy.resetAll();
    expect((await failed).code).toBe('ECONNRESET');
    const next = await client();
    next.socket.write('pong');
    await next.until('pong');
    expect(proxy.accepted).toBe(2);
  });

  it('a reset during a blackhole discards what its sender had sent into it (never acknowledged, never resent)', async () => {
    await started();
    const c = await client();
    c.socket.write('1');
    await c.until('1');
    proxy.blackhole(true);
    c.socket.write('lost');
    // A moment for the bytes to leave (a reset in the same turn as the write goes out as a FIN).
    await new Promise((r) => setTimeout(r, 100));
    c.socket.resetAndDestroy();
    const next = await client();
    next.socket.write('2');
    proxy.blackhole(false);
    // Released in order: what the reset connection held would have reached the echo first.
    await next.until('2');
    expect(echoed).toBe('12');
  });

  it('with a target found per connection, holds a connection until it is known and forwards what came meanwhile', async () => {
    let known: (target: { host: string; port: number }) => void = () => undefined;
    const target = new Promise<{ host: string; port: number }>((r) => (known = r));
    let asked = 0;
    proxy = new TcpProxy(() => {
      asked += 1;
      return target;
    });
    await proxy.start();
    const c = await client();
    c.socket.write('early');
    // Nothing reaches the echo before the target is known: no connection is made.
    await new Promise((r) => setTimeout(r, 100));
    expect(echoed).toBe('');
    expect(proxy.open).toBe(0);
    known({ host: '127.0.0.1', port: echoPort });
    await c.until('early');
    expect(asked).toBe(1);
  });

  it('with a target that cannot be found, closes the connection', async () => {
    proxy = new TcpProxy(() => Promise.reject(new Error('no replica yet')));
    await proxy.start();
    const c = await client();
    await new Promise<void>((r) => c.socket.once('close', () => r()));
    expect(proxy.open).toBe(0);
  });

  it('stop closes the listener and every socket', async () => {
    await started();
    const c = await client();
    c.socket.write('ping');
    await c.until('ping');
    const closed = new Promise<void>((r) => c.socket.once('close', () => r()));
    const port = proxy.port;
    await proxy.stop();
    await closed;
    expect(proxy.open).toBe(0);
    const refused = connect({ host: '127.0.0.1', port });
    sockets.push(refused);
    const err = await new Promise<NodeJS.ErrnoException>((r) => refused.once('error', r));
    expect(err.code).toBe('ECONNREFUSED');
  });
});
