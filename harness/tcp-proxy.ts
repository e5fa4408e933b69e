// A TCP proxy with network faults, for putting between a tier and MariaDB: it listens on
// a free loopback port and forwards every connection to its target, each accepted
// connection paired with one of its own to the target. The faults, which the test or
// bench turns on and off while the load runs:
// - setLatency(ms): every chunk is delivered ms after it arrived, in each direction, in
//   the order it arrived (a round trip gains 2·ms);
// - blackhole(on): nothing crosses in either direction — data, a FIN, a reset — and
//   every socket stays open; a new connection is accepted (and dialled onward) but
//   nothing crosses on it either. What arrives meanwhile is held, not dropped: on a real
//   network TCP retransmits what a partition swallowed and delivers it, in order, once the
//   partition heals (dropping bytes here would instead corrupt the streams, which no
//   network does). So blackhole(false) releases everything held, in order — a FIN after
//   the bytes before it, as TCP sends it. Except what a reset throws away: a sender that
//   resets its socket discards what it had not yet got acknowledged, which in a blackhole
//   is everything it sent since the blackhole began; so a reset drops what is held from
//   its sender, and the reset itself reaches the peer when the blackhole ends;
// - resetAll(): every current connection pair is ended with a TCP RST on both sides (what
//   a restarted firewall or NAT does to its flows); connections made after it work.
// The target is fixed, or found per connection (a replica restarted behind its proxy binds
// a new port): a connection that arrives before the target is known waits for it, its
// bytes held by the kernel.
// No library: node:net, one queue per direction.
import { createServer, connect } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Component } from '../proto/runtime/lifecycle.js';

/** What crosses one direction, in order: bytes, then perhaps the sender's FIN or its reset. */
type Payload = { kind: 'data'; chunk: Buffer } | { kind: 'end' } | { kind: 'reset' };
type Item = Payload & { dueAt: number };

/** One direction of a pair: from `from`, held until due (and no blackhole), written to `to`. */
class Direction {
  private readonly queue: Item[] = [];
  private timer: NodeJS.Timeout | undefined;
  private waitingForDrain = false;

  constructor(
    private readonly proxy: TcpProxy,
    private readonly from: Socket,
    private readonly to: Socket,
  ) {}

  push(item: Payload): void {
    // A reset discards what its sender had not got acknowledged: in a blackhole, all that
    // is held (outside one, what is held is on the wire ahead of the reset).
    if (item.kind === 'reset' && this.proxy.blackholed) this.queue.length = 0;
    this.queue.push({ ...item, dueAt: performance.now() + this.proxy.latencyMs });
    this.pump();
  }

  /** Delivers what is due, in order; re-arms itself for the next item. */
  pump(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.queue.length > 0 && !this.proxy.blackholed) {
      const head = this.queue[0] as Item;
      const wait = head.dueAt - performance.now();
      if (wait > 0) {
        this.timer = setTimeout(() => this.pump(), Math.ceil(wait));
        return;
      }
      this.queue.shift();
      this.deliver(head);
    }
  }

  private deliver(item: Item): void {
    if (this.to.destroyed) return;
    if (item.kind === 'end') {
      this.to.end();
    } else if (item.kind === 'reset') {
      this.to.resetAndDestroy();
    } else if (!this.to.write(item.chunk) && !this.waitingForDrain) {
      // The receiver is slow: stop reading its sender until it has taken what it was given.
      this.waitingForDrain = true;
      this.from.pause();
      this.to.once('drain', () => {
        this.waitingForDrain = false;
        this.from.resume();
      });
    }
  }

  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.queue.length = 0;
  }
}

/** An accepted connection and the proxy's own to the target. */
class Pair {
  readonly up: Direction;
  readonly down: Direction;

  constructor(
    proxy: TcpProxy,
    readonly client: Socket,
    readonly upstream: Socket,
  ) {
    this.up = new Direction(proxy, client, upstream);
    this.down = new Direction(proxy, upstream, client);
    this.wire(client, this.up);
    this.wire(upstream, this.down);
  }

  /** What `socket` sends goes through `dir`: its bytes, its FIN, its reset (an error). */
  private wire(socket: Socket, dir: Direction): void {
    socket.on('data', (chunk: Buffer) => dir.push({ kind: 'data', chunk }));
    socket.on('end', () => dir.push({ kind: 'end' }));
    socket.on('error', () => dir.push({ kind: 'reset' }));
  }

  pump(): void {
    this.up.pump();
    this.down.pump();
  }

  /** Ends both sides now: with a RST (`reset`), or by closing them (stop). */
  destroy(reset: boolean): void {
    this.up.clear();
    this.down.clear();
    for (const s of [this.client, this.upstream]) {
      if (s.destroyed) continue;
      if (reset) s.resetAndDestroy();
      else s.destroy();
    }
  }
}

/** Where a proxy forwards to. */
export interface ProxyTarget {
  host: string;
  port: number;
}

export class TcpProxy implements Component {
  readonly name = 'tcp proxy';
  private server: Server | undefined;
  private readonly pairs = new Set<Pair>();
  private listenPort = 0;
  /** Added to each chunk, each way (ms). */
  latencyMs = 0;
  blackholed = false;
  /** Connections accepted since start. */
  accepted = 0;

  /** `target`: fixed, or asked for each connection (rejecting: the connection is closed). */
  constructor(
    private readonly target: ProxyTarget | (() => Promise<ProxyTarget>),
    private readonly host = '127.0.0.1',
  ) {}

  /** The port it listens on (once started). */
  get port(): number {
    if (this.listenPort === 0) throw new Error('the proxy is not started');
    return this.listenPort;
  }

  /** Connections open now (pairs whose sockets are not both closed). */
  get open(): number {
    return this.pairs.size;
  }

  async start(): Promise<void> {
    // allowHalfOpen: a FIN crosses as an item of its direction, like the bytes before it.
    const server = createServer({ allowHalfOpen: true, noDelay: true }, (client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, this.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.listenPort = (server.address() as AddressInfo).port;
  }

  private accept(client: Socket): void {
    this.accepted += 1;
    if (typeof this.target !== 'function') return this.pair(client, this.target);
    // Until its target is known the client is not read (paused: no 'data' listener yet).
    const early = (): void => void client.destroy();
    client.once('error', early);
    this.target().then(
      (target) => {
        client.off('error', early);
        if (!client.destroyed && this.server) this.pair(client, target);
        else client.destroy();
      },
      () => client.destroy(),
    );
  }

  private pair(client: Socket, target: ProxyTarget): void {
    const upstream = connect({ host: target.host, port: target.port, allowHalfOpen: true, noDelay: true });
    const pair = new Pair(this, client, upstream);
    this.pairs.add(pair);
    let closed = 0;
    const onClose = (): void => {
      if (++closed === 2) this.pairs.delete(pair);
    };
    client.once('close', onClose);
    upstream.once('close', onClose);
  }

  setLatency(ms: number): void {
    this.latencyMs = ms;
  }

  blackhole(on: boolean): void {
    this.blackholed = on;
    if (!on) for (const p of this.pairs) p.pump();
  }

  /** Every current connection pair ended with a TCP RST, both ways; what either side had in flight is gone. */
  resetAll(): void {
    for (const p of this.pairs) p.destroy(true);
    this.pairs.clear();
  }

  /** Closes the listener and every socket it holds. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const p of this.pairs) p.destroy(false);
    this.pairs.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
