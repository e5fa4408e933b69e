// The tier's call layer (server/grpc/interceptors.ts) and unary adapter (unary.ts) around
// one handler, in a real grpc-js server, and a real grpc-js client's call to it: for the
// tests of a call's trace (call-trace.test.ts, root-draw.test.ts).
import * as grpc from '@grpc/grpc-js';
import type { Context } from '@opentelemetry/api';
import type { RootDraw } from '../../proto/runtime/tracing-roots.js';
import { createLogger } from '../../proto/runtime/log.js';
import { CallerNames } from '../../server/caller-names.js';
import { callInterceptor } from '../../server/grpc/interceptors.js';
import { unary } from '../../server/grpc/unary.js';
import type { UnaryDeps } from '../../server/grpc/unary.js';
import { Metrics } from '../../server/metrics.js';
import type { CallContext } from '../../server/rpc/context.js';
import { rawMethod } from './raw-method.js';

export const ECHO = rawMethod('/trace.Test/Echo');
/** The same handler on the health service's path (call-trace.ts traces it under a caller's trace only). */
export const HEALTH = rawMethod('/grpc.health.v1.Health/Check');
export const NODE = '6f1c1a52-52f5-4c2b-9a1e-1b0c2d3e4f50';

export interface Served {
  port: number;
  /** Every line the tier's log wrote, parsed. */
  lines: Record<string, unknown>[];
  /** Each handled call's context. */
  contexts: Context[];
  stop: () => void;
}

/**
 * The layer and the adapter around one handler: it logs a line, and throws for 'boom'
 * (INTERNAL, logged again). `draw`: the layer's root draw (the tier's rootDraw), if any.
 */
export async function serveCallLayer(draw?: RootDraw): Promise<Served> {
  const lines: Record<string, unknown>[] = [];
  const contexts: Context[] = [];
  const log = createLogger('info', {}, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const handler = async (request: Buffer, ctx: CallContext): Promise<Buffer> => {
    contexts.push(ctx.trace);
    ctx.log.info('handling');
    if (request.toString() === 'boom') throw new Error('boom');
    return request;
  };
  const server = new grpc.Server({ interceptors: [callInterceptor(new Metrics('call-trace'), new CallerNames({ configured: new Set(['test']), max: 0 }), draw)] });
  const context = { log } as unknown as UnaryDeps['context'];
  // The handler runs no statement: no pair owner is ever asked for.
  const pairOwner = (): never => {
    throw new Error('no statement here');
  };
  const deps = { context, callerNames: { label: (d: string | undefined) => d ?? 'unknown' }, pairOwner, rootDraw: draw };
  server.addService({ Echo: ECHO }, { Echo: unary('Echo', handler as never, deps) });
  server.addService({ Check: HEALTH }, { Check: unary('Check', handler as never, deps) });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound))),
  );
  return { port, lines, contexts, stop: () => server.forceShutdown() };
}

/** One call with `metadata` (the caller headers added); its status code. */
export function callLayer(port: number, body: string, metadata = new grpc.Metadata(), node = NODE, method = ECHO): Promise<number> {
  metadata.set('x-sfdb-caller-daemon', 'test');
  if (node !== '') metadata.set('x-sfdb-caller-node', node);
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return new Promise((resolve) => {
    const c = client.makeUnaryRequest(method.path, method.requestSerialize, method.responseDeserialize, Buffer.from(body), metadata, { deadline: Date.now() + 10_000 }, () => undefined);
    c.on('status', (s: grpc.StatusObject) => {
      client.close();
      resolve(s.code);
    });
  });
}
