// The answer backlog's decisions on fake sessions and streams: a connection's unread
// answer bytes against its cap, the replica's sum against its cap (a connection without
// unread answers is never refused for it), and the sums kept as streams and connections
// close. The real HTTP/2 case is test/integration/edge-memory.test.ts.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { AnswerBacklogs } from '../../server/grpc/backlog.js';
import type { BacklogStream } from '../../server/grpc/backlog.js';

class FakeStream extends EventEmitter implements BacklogStream {
  writableLength = 0;
  close(): void {
    this.writableLength = 0;
    this.emit('close');
  }
}

class FakeSession extends EventEmitter {
  readonly socket: { remoteAddress: string; remotePort: number };

  constructor(port: number) {
    super();
    this.socket = { remoteAddress: '192.0.2.7', remotePort: port };
  }

  get peer(): string {
    return `192.0.2.7:${this.socket.remotePort}`;
  }

  /** A new call whose answer leaves `unread` bytes unsent. */
  answer(unread: number): FakeStream {
    const stream = new FakeStream();
    this.emit('stream', stream);
    stream.writableLength = unread;
    return stream;
  }
}

const MB = 1_048_576;

function setup(): { backlogs: AnswerBacklogs; a: FakeSession; b: FakeSession } {
  const backlogs = new AnswerBacklogs({ connectionBytes: 4 * MB, replicaBytes: 6 * MB });
  const a = new FakeSession(40_001);
  const b = new FakeSession(40_002);
  backlogs.watch(a);
  backlogs.watch(b);
  return { backlogs, a, b };
}

describe('AnswerBacklogs', () => {
  it('refuses a connection at its cap, and no longer once its answers are read', () => {
    const { backlogs, a, b } = setup();
    const first = a.answer(2 * MB);
    expect(backlogs.refusal(a.peer)).toBeUndefined();
    a.answer(2 * MB);
    expect(backlogs.refusal(a.peer)).toBe('connection_backlog');
    expect(backlogs.refusal(b.peer)).toBeUndefined();
    first.close();
    expect(backlogs.refusal(a.peer)).toBeUndefined();
    expect(backlogs.total).toBe(2 * MB);
  });

  it('at the replica cap refuses connections with unread answers, not one without', () => {
    const { backlogs, a, b } = setup();
    a.answer(3 * MB);
    b.answer(3 * MB);
    const c = new FakeSession(40_003);
    backlogs.watch(c);
    expect(backlogs.total).toBe(0); // summed when asked: nothing asked yet
    expect(backlogs.refusal(a.peer)).toBeUndefined(); // 3 MB of 6: the replica is not yet at its cap
    expect(backlogs.refusal(b.peer)).toBe('replica_backlog');
    expect(backlogs.refusal(a.peer)).toBe('replica_backlog');
    expect(backlogs.refusal(c.peer)).toBeUndefined();
  });

  it('a closed connection gives its bytes back and is forgotten', () => {
    const { backlogs, a, b } = setup();
    a.answer(5 * MB);
    expect(backlogs.refusal(a.peer)).toBe('connection_backlog');
    expect(backlogs.total).toBe(5 * MB);
    a.emit('close');
    expect(backlogs.total).toBe(0);
    expect(backlogs.refusal(a.peer)).toBeUndefined();
    b.answer(2 * MB);
    expect(backlogs.refusal(b.peer)).toBeUndefined();
  });

  it('an unknown peer (a call whose socket is gone) is not refused', () => {
    const { backlogs } = setup();
    expect(backlogs.refusal('unknown')).toBeUndefined();
  });
});
