// The call interceptor (server/grpc/interceptors.ts) against a stand-in for grpc-js's call:
// grpc-js reports every stream's close as onCancel, also after the status was sent. A
// call that ended with its status is over, not cancelled: its handler is not told (a
// long-poll's handler would otherwise abort its signal for every answered poll), and it is
// not counted CANCELLED. A call the client cancels first is.
import * as grpc from '@grpc/grpc-js';
import { describe, expect, it, vi } from 'vitest';
import { CallerNames } from '../../server/caller-names.js';
import { callInterceptor } from '../../server/grpc/interceptors.js';
import { Metrics } from '../../server/metrics.js';
import { metricValue } from '../../harness/scrape.js';

type Listener = Parameters<grpc.ServerInterceptingCallInterface['start']>[0];

/** grpc-js's call below the interceptor: keeps the listener it is given, records statuses. */
function streamCall(deadline: grpc.Deadline = Infinity): { call: grpc.ServerInterceptingCallInterface; below: () => Listener; statuses: number[] } {
  let listener: Listener | undefined;
  const statuses: number[] = [];
  const call = {
    start: (l: Listener) => void (listener = l),
    sendMetadata: () => {},
    sendMessage: (_m: unknown, cb: () => void) => cb(),
    sendStatus: (s: { code: number }) => void statuses.push(s.code),
    startRead: () => {},
    getPeer: () => 'ipv4:127.0.0.1:1',
    getDeadline: () => deadline,
    getHost: () => 'localhost',
    getAuthContext: () => ({}),
    getConnectionInfo: () => ({}),
    getMetricsRecorder: () => ({}),
  } as unknown as grpc.ServerInterceptingCallInterface;
  return { call, below: () => listener as Listener, statuses };
}

function handler(): Listener & { onCancel: ReturnType<typeof vi.fn> } {
  return { onReceiveMetadata: vi.fn(), onReceiveMessage: vi.fn(), onReceiveHalfClose: vi.fn(), onCancel: vi.fn() } as unknown as Listener & {
    onCancel: ReturnType<typeof vi.fn>;
  };
}

const METHOD = { path: '/sfdb.v1.Database/WaitForChanges' } as grpc.ServerMethodDefinition<unknown, unknown>;

/** A started call through the interceptor, with its metrics, the stream below and the handler above. */
function startedCall(deadline?: grpc.Deadline): { metrics: Metrics; stream: ReturnType<typeof streamCall>; call: grpc.ServerInterceptingCall; h: ReturnType<typeof handler> } {
  const metrics = new Metrics('interceptor-test');
  const stream = streamCall(deadline);
  const call = callInterceptor(metrics, new CallerNames({ configured: new Set(['queues']), max: 0 }))(METHOD, stream.call as grpc.ServerInterceptingCall);
  const h = handler();
  call.start(h);
  return { metrics, stream, call, h };
}

describe('the call interceptor and a stream that closes', () => {
  it('after the status: the handler is not told, nothing is counted CANCELLED, the in-flight gauge falls once', async () => {
    const { metrics, stream, call, h } = startedCall();
    expect(metricValue(await metrics.registry.metrics(), 'database_requests_in_flight')).toBe(1);
    call.sendStatus({ code: grpc.status.OK, details: '' });
    stream.below().onCancel(); // the stream's close
    expect(h.onCancel).not.toHaveBeenCalled();
    expect(stream.statuses).toEqual([grpc.status.OK]);
    const text = await metrics.registry.metrics();
    expect(metricValue(text, 'database_requests_in_flight')).toBe(0);
    expect(metricValue(text, 'database_request_errors_total', { operation: 'WaitForChanges', code: 'CANCELLED' })).toBe(0);
    expect(metricValue(text, 'database_request_duration_seconds_count', { operation: 'WaitForChanges' })).toBe(1);
  });

  it('before any status (the client cancelled): the handler hears it once, counted CANCELLED', async () => {
    const { metrics, stream, h } = startedCall();
    stream.below().onCancel();
    expect(h.onCancel).toHaveBeenCalledTimes(1);
    const text = await metrics.registry.metrics();
    expect(metricValue(text, 'database_requests_in_flight')).toBe(0);
    expect(metricValue(text, 'database_request_errors_total', { operation: 'WaitForChanges', code: 'CANCELLED' })).toBe(1);
  });

  it('before any status, its deadline passed (grpc-js answered DEADLINE_EXCEEDED beneath): counted DEADLINE_EXCEEDED, not CANCELLED', async () => {
    const { metrics, stream, h } = startedCall(new Date(Date.now() - 1));
    stream.below().onCancel();
    expect(h.onCancel).toHaveBeenCalledTimes(1);
    const text = await metrics.registry.metrics();
    expect(metricValue(text, 'database_request_errors_total', { operation: 'WaitForChanges', code: 'DEADLINE_EXCEEDED' })).toBe(1);
    expect(metricValue(text, 'database_request_errors_total', { operation: 'WaitForChanges', code: 'CANCELLED' })).toBe(0);
  });
});

describe("the call interceptor and the call's peer", () => {
  it('reads it from the layer below once per call, and answers the same every time', () => {
    const stream = streamCall();
    let reads = 0;
    const below = stream.call as unknown as { getPeer: () => string };
    below.getPeer = () => `ipv4:127.0.0.1:${++reads}`;
    const call = callInterceptor(new Metrics('interceptor-peer-test'), new CallerNames({ configured: new Set(), max: 0 }))(METHOD, stream.call as grpc.ServerInterceptingCall);
    call.start(handler());
    expect([call.getPeer(), call.getPeer(), call.getPeer()]).toEqual(['ipv4:127.0.0.1:1', 'ipv4:127.0.0.1:1', 'ipv4:127.0.0.1:1']);
    expect(reads).toBe(1);
  });
});
