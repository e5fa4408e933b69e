// Who a statement is for (server/db/owner.ts): its comment in the sqlcommenter format, the
// split of a shared statement's seconds, and the name of the query function that sent it.
import { ROOT_CONTEXT } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { senderName } from '../../server/db/coalescer.js';
import { CallOwner, PairOwner, SharedOwner, sqlComment } from '../../server/db/owner.js';

function sink(): { seconds: number; wait: number; slow: number; charge(s: number, w: number): void; countSlow(): void } {
  return {
    seconds: 0,
    wait: 0,
    slow: 0,
    charge(s, w) {
      this.seconds += s;
      this.wait += w;
    },
    countSlow() {
      this.slow += 1;
    },
  };
}

describe('sqlComment', () => {
  it('sorts its keys and URL-encodes and quote-escapes its values', () => {
    expect(sqlComment({ operation: 'GetNode', caller: 'net' })).toBe(" /*caller='net',operation='GetNode'*/");
    expect(sqlComment({ a: "it's 1/2" })).toBe(" /*a='it\\'s%201%2F2'*/");
    expect(sqlComment({})).toBe('');
  });

  it('never ends its comment early, whatever the value', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (k, v) => {
        const c = sqlComment({ [k]: v });
        const body = c.slice(3, -2);
        expect(c.startsWith(' /*') && c.endsWith('*/')).toBe(true);
        expect(body).not.toContain('*/');
      }),
    );
  });
});

describe('owners', () => {
  it('a call is charged to its pair and names its traceparent only when traced', () => {
    const s = sink();
    const pair = new PairOwner('GetNode', 'net', s);
    const plain = new CallOwner(pair, 'n1');
    expect(plain.comment).toBe(pair.comment);
    expect(plain.uniqueComment).toBe(false);
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    expect(plain.traceContext).toBeUndefined();
    const context = ROOT_CONTEXT.setValue(Symbol('call span'), 1);
    const traced = new CallOwner(pair, 'n1', { traceId: '0af7651916cd43dd8448eb211c80319c', traceparent, context });
    expect(traced.comment).toBe(` /*caller='net',operation='GetNode',traceparent='${traceparent}'*/`);
    expect(traced.uniqueComment).toBe(true);
    expect(traced.traceContext).toBe(context);
    // A statement shared with it is a span under the first call's (a coalesced read), or the one given (a batch's).
    expect(new SharedOwner(traced).traceContext).toBe(context);
    expect(new SharedOwner(traced, ROOT_CONTEXT).traceContext).toBe(ROOT_CONTEXT);
    expect(new SharedOwner(plain).traceContext).toBeUndefined();
    traced.charge(0.5, 0.25);
    plain.countSlow();
    expect(s).toMatchObject({ seconds: 0.5, wait: 0.25, slow: 1 });
  });

  it('a shared statement is charged in equal parts to its calls, adding up to its seconds, and counted slow once', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 20 }), fc.double({ min: 0, max: 10, noNaN: true }), (callers, seconds) => {
        const sinks = [sink(), sink(), sink(), sink()];
        const owners = callers.map((c) => new PairOwner('SetNodeDaemonState', `d${c}`, sinks[c] as ReturnType<typeof sink>));
        const shared = new SharedOwner(owners[0] as PairOwner);
        for (const o of owners.slice(1)) shared.add(o);
        shared.charge(seconds, seconds / 2);
        shared.countSlow();
        const total = sinks.reduce((a, s) => a + s.seconds, 0);
        expect(total).toBeCloseTo(seconds, 9);
        for (let c = 0; c < 4; c++) expect(sinks[c]?.seconds).toBeCloseTo((seconds * callers.filter((x) => x === c).length) / callers.length, 9);
        expect(sinks.reduce((a, s) => a + s.slow, 0)).toBe(1);
        expect(shared.comment).toBe(" /*caller='shared',operation='SetNodeDaemonState'*/");
        expect(shared.callerDaemon).toBe(new Set(callers).size === 1 ? `d${callers[0]}` : 'shared');
        expect(shared.callers()).toEqual([...new Set(callers.map((c) => `d${c}`))]);
      }),
    );
  });
});

describe('senderName', () => {
  const frames = (...lines: string[]): string => ['Error', ...lines.map((l) => `    at ${l}`)].join('\n');
  it('names the first frame outside server/db/, without its module prefix', () => {
    expect(
      senderName(
        frames(
          'statementOf (file:///w/server/db/coalescer.ts:80:9)',
          'BoundSql.run (/w/server/db/bound-sql.ts:120:3)',
          'Module.upsertState (/w/server/rpc/objects/state-queries.ts:40:14)',
          'async handler (/w/server/rpc/objects/handlers.ts:10:1)',
        ),
      ),
    ).toBe('upsertState (rpc/objects/state-queries.ts)');
    expect(senderName(frames('BoundSql.rows (/w/dist/server/db/bound-sql.js:1:1)', 'selectNode (/w/dist/server/rpc/nodes/queries.js:12:7)'))).toBe(
      'selectNode (rpc/nodes/queries.js)',
    );
  });

  it('names an anonymous sender by its file and line, and anything else unknown', () => {
    expect(senderName(frames('BoundSql.rows (/w/server/db/bound-sql.ts:1:1)', '/w/server/changefeed/feed.ts:88:20'))).toBe('changefeed/feed.ts:88');
    expect(senderName(frames('BoundSql.rows (/w/server/db/bound-sql.ts:1:1)', 'process.processTicksAndRejections (node:internal/process/task_queues:95:5)'))).toBe('unknown');
  });
});
