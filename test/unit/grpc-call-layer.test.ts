// The tier's call layer (server/grpc/interceptors.ts) in a real grpc-js server, alone and
// between two of grpc-js's own layers (ServerInterceptingCall built with its public
// builders), with a real grpc-js client: it admits and counts a call, refuses a bad caller
// header before the handler, and hears a cancel. How grpc-js takes the layer is the
// boundary's (server/grpc/grpc-js/intercepting-call.ts): it is the listener of the call
// below, an intercepting listener by grpc-js's rule (a one-argument onReceiveMetadata).
// A grpc-js upgrade that takes such a layer otherwise (another rule for an intercepting
// listener, a new method it calls on an interceptor's call, the listener's events moved)
// fails here: a call hangs to its deadline, reaches the handler unadmitted, or goes
// uncounted.
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { metricValue } from '../../harness/scrape.js';
import { CallerNames } from '../../server/caller-names.js';
import { callInterceptor } from '../../server/grpc/interceptors.js';
import { Metrics } from '../../server/metrics.js';
import { rawMethod } from '../helpers/raw-method.js';
import { waitFor } from '../helpers/wait.js';

const ECHO = rawMethod('/boundary.Test/Echo');
const HANG = rawMethod('/boundary.Test/Hang');

/** grpc-js's own general layer, from its public builders: records that the metadata passed it. */
function grpcJsLayer(name: string, passed: string[]): grpc.ServerInterceptor {
  return (_method, call) =>
    new grpc.ServerInterceptingCall(call, {
      start: (next) =>
        next(
          new grpc.ServerListenerBuilder()
            .withOnReceiveMetadata((metadata, nextMetadata) => {
              passed.push(name);
              nextMetadata(metadata);
            })
            .build(),
        ),
    });
}

interface Running {
  port: number;
  metrics: Metrics;
  handled: string[];
  cancelled: string[];
  passed: string[];
  stop: () => void;
}

const running: Running[] = [];
afterEach(() => {
  for (const r of running.splice(0)) r.stop();
});

async function serve(stack: 'alone' | 'between grpc-js layers'): Promise<Running> {
  const metrics = new Metrics('call-layer');
  const handled: string[] = [];
  const cancelled: string[] = [];
  const passed: string[] = [];
  const layer = callInterceptor(metrics, new CallerNames({ configured: new Set(['queues']), max: 0 }));
  const interceptors = stack === 'alone' ? [layer] : [grpcJsLayer('outer', passed), layer, grpcJsLayer('inner', passed)];
  const server = new grpc.Server({ interceptors });
  server.addService({ Echo: ECHO, Hang: HANG }, {
    Echo: (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
      handled.push(call.request.toString());
      callback(null, call.request);
    },
    Hang: (call: grpc.ServerUnaryCall<Buffer, Buffer>) => {
      handled.push(call.request.toString());
      call.on('cancelled', () => cancelled.push(call.request.toString()));
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound))),
  );
  const r = { port, metrics, handled, cancelled, passed, stop: () => server.forceShutdown() };
  running.push(r);
  return r;
}

interface Answer {
  code: number;
  details: string;
  body?: string;
}

function call(port: number, def: grpc.MethodDefinition<Buffer, Buffer>, body: string, headers: Record<string, string>): { done: Promise<Answer>; cancel: () => void } {
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const metadata = new grpc.Metadata();
  for (const [k, v] of Object.entries(headers)) metadata.set(k, v);
  let answer: string | undefined;
  // A layer grpc-js no longer drives leaves the call hanging: the deadline shows it.
  const c = client.makeUnaryRequest(def.path, def.requestSerialize, def.responseDeserialize, Buffer.from(body), metadata, { deadline: Date.now() + 10_000 }, (_err, value) => {
    answer = value?.toString();
  });
  const done = new Promise<Answer>((resolve) => {
    c.on('status', (s: grpc.StatusObject) => {
      client.close();
      resolve({ code: s.code, details: s.details, ...(answer !== undefined ? { body: answer } : {}) });
    });
  });
  return { done, cancel: () => c.cancel() };
}

describe.each(['alone', 'between grpc-js layers'] as const)("the tier's call layer in grpc-js's server, %s", (stack) => {
  it('admits and counts a call, and refuses a bad caller header before the handler, counted once', async () => {
    const s = await serve(stack);
    const ok = await call(s.port, ECHO, 'hello', { 'x-sfdb-caller-daemon': 'queues' }).done;
    expect(ok).toEqual({ code: grpc.status.OK, details: 'OK', body: 'hello' });
    const refused = await call(s.port, ECHO, 'refused', { 'x-sfdb-caller-node': 'not-a-uuid', 'x-sfdb-caller-daemon': 'queues' }).done;
    expect(refused.code, refused.details).toBe(grpc.status.INVALID_ARGUMENT);
    expect(refused.details).toMatch(/^x-sfdb-caller-node: /);
    expect(s.handled).toEqual(['hello']);
    if (stack !== 'alone') expect(s.passed).toEqual(['outer', 'inner', 'outer']);
    const text = await s.metrics.registry.metrics();
    expect(metricValue(text, 'database_requests_total', { operation: 'Echo', caller_daemon: 'queues' })).toBe(2);
    expect(metricValue(text, 'database_request_errors_total', { operation: 'Echo', code: 'INVALID_ARGUMENT' })).toBe(1);
    expect(metricValue(text, 'database_request_duration_seconds_count', { operation: 'Echo' })).toBe(2);
    expect(metricValue(text, 'database_requests_in_flight')).toBe(0);
  });

  it('passes a client cancel to the handler, counted CANCELLED', async () => {
    const s = await serve(stack);
    const hang = call(s.port, HANG, 'waits', { 'x-sfdb-caller-daemon': 'queues' });
    await waitFor('the handler has the call', 10_000, () => ({ ok: s.handled.length === 1, seen: s.handled }), 20);
    const inFlight = async (): Promise<number> => metricValue(await s.metrics.registry.metrics(), 'database_requests_in_flight');
    expect(await inFlight()).toBe(1);
    hang.cancel();
    expect((await hang.done).code).toBe(grpc.status.CANCELLED);
    await waitFor('the handler heard the cancel and the call ended', 10_000, async () => ({
      ok: s.cancelled.length === 1 && (await inFlight()) === 0,
      seen: { cancelled: s.cancelled, inFlight: await inFlight() },
    }), 20);
    const text = await s.metrics.registry.metrics();
    expect(metricValue(text, 'database_request_errors_total', { operation: 'Hang', code: 'CANCELLED' })).toBe(1);
  });
});
