// Traces as an operator gets them: a real tier process and a real sf-daemon, each told by
// the standard variables (OTEL_TRACES_EXPORTER=otlp, OTEL_EXPORTER_OTLP_ENDPOINT, the
// sampler, the service name) to export OTLP/HTTP to a collector — here an HTTP server in
// the test that decodes what arrives (JSON, what the exporter built in sends). The agent's
// heartbeat is one trace across the two processes: its iteration (sf-daemon), the
// NodeHeartbeat client call under it (sf-daemon), the tier's call under that (sf-database).
// Both processes are stopped with SIGTERM: what they traced is flushed as they stop.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../client/index.js';
import type { ProcessCluster } from '../../harness/cluster.js';
import { spawnTier, testCluster } from '../helpers/process.js';
import { sfDaemon } from '../helpers/sf-daemon.js';
import { waitFor } from '../helpers/wait.js';

/** One span as OTLP/JSON carries it, with its process's resource. */
interface ExportedSpan {
  service: string;
  instance: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
type OtlpAttributes = { key: string; value: OtlpValue }[] | undefined;

const valueOf = (v: OtlpValue): unknown => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue));
const attributesOf = (a: OtlpAttributes): Record<string, unknown> => Object.fromEntries((a ?? []).map(({ key, value }) => [key, valueOf(value)]));

// OTLP's span kinds (opentelemetry/proto/trace/v1/trace.proto).
const INTERNAL = 1;
const SERVER = 2;
const CLIENT = 3;

const received: ExportedSpan[] = [];
const requests: { path: string; contentType: string }[] = [];
let collector: Server;
let endpoint: string;
let cluster: ProcessCluster;
const children: ChildProcess[] = [];

beforeAll(async () => {
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '' });
      const raw = Buffer.concat(chunks);
      const body = JSON.parse((req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString()) as {
        resourceSpans?: { resource?: { attributes?: OtlpAttributes }; scopeSpans?: { spans?: (Omit<ExportedSpan, 'service' | 'instance' | 'attributes'> & { attributes?: OtlpAttributes })[] }[] }[];
      };
      for (const rs of body.resourceSpans ?? []) {
        const resource = attributesOf(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            received.push({ ...s, service: String(resource['service.name']), instance: String(resource['service.instance.id']), attributes: attributesOf(s.attributes) });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const address = collector.address();
  endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  cluster = testCluster(['traced'], {
    env: { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_SAMPLER: 'parentbased_always_on', OTEL_SERVICE_NAME: 'tier-under-test' },
  });
  await cluster.start();
});

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await cluster?.stop();
  await new Promise((resolve) => collector?.close(resolve));
});

describe('OTLP export from the tier and sf-daemon', () => {
  it("one trace from the daemon's iteration through its call to the tier's, flushed as both processes stop", async () => {
    const replica = cluster.replica('traced');
    const nodeUuid = randomUUID();
    const operator = createClient({ targets: replica.grpcAddress, callerDaemon: 'sf-ctl', cache: false });
    await operator.createNode({ uuid: nodeUuid, fqdn: `traced-${nodeUuid.slice(0, 8)}.example.com` });
    operator.close();
    const daemon = sfDaemon(replica.grpcAddress, 'agent', nodeUuid, {
      env: { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${endpoint}/v1/traces`, OTEL_TRACES_SAMPLER: 'always_on', SFDB_LOG_LEVEL: 'warn' },
      children,
    });
    await daemon.running();
    daemon.proc.kill('SIGTERM');
    expect((await daemon.exited).code).toBe(0);
    const status = await cluster.terminate('traced', 'SIGTERM', 30_000);
    expect(status.code).toBe(0);

    // Exported by then (the stop flushes); a look or two for the collector's last request.
    await waitFor('the heartbeat traced through both processes', 10_000, () => {
      const iteration = received.find((s) => s.name === 'agent iteration');
      return { ok: iteration !== undefined && received.some((s) => s.kind === SERVER && s.traceId === iteration.traceId), seen: received.map((s) => `${s.service} ${s.name}`) };
    });
    const iteration = received.find((s) => s.name === 'agent iteration') as ExportedSpan;
    const trace = received.filter((s) => s.traceId === iteration.traceId);
    const heartbeat = trace.find((s) => s.kind === CLIENT);
    const served = trace.find((s) => s.kind === SERVER);
    expect(iteration).toMatchObject({ service: 'sf-daemon', instance: `agent@${nodeUuid}`, kind: INTERNAL });
    expect(iteration.parentSpanId ?? '').toBe(''); // a root
    expect(iteration.attributes).toMatchObject({ 'sfdb.daemon': 'agent', 'sfdb.node': nodeUuid });
    expect(heartbeat).toMatchObject({ service: 'sf-daemon', name: 'sfdb.v1.Database/NodeHeartbeat', parentSpanId: iteration.spanId });
    expect(heartbeat?.attributes).toMatchObject({ 'sfdb.caller_daemon': 'agent', 'sfdb.replica': replica.grpcAddress, 'rpc.grpc.status_code': 0 });
    expect(served).toMatchObject({ service: 'tier-under-test', instance: replica.id, name: 'sfdb.v1.Database/NodeHeartbeat', parentSpanId: heartbeat?.spanId });
    expect(served?.attributes).toMatchObject({ 'sfdb.caller_daemon': 'agent', 'sfdb.caller_node': nodeUuid, 'sfdb.admission': 'admitted', 'rpc.grpc.status_code': 0 });
    // OTLP/HTTP, as JSON, where the variables said: the base endpoint + /v1/traces for the tier, the traces endpoint as given for sf-daemon.
    expect(new Set(requests.map((r) => `${r.path} ${r.contentType}`))).toEqual(new Set(['/v1/traces application/json']));
  });
});

describe('a bad tracing variable', () => {
  it('stops sf-database and sf-daemon at start, naming the variable (exit 2)', async () => {
    const tier = spawnTier({ env: { OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'sometimes' } });
    expect((await tier.exited).code).toBe(2);
    expect(tier.stderr()).toMatch(/sf-database: OTEL_TRACES_SAMPLER: "sometimes" is not a sampler/);
    const daemon = sfDaemon('127.0.0.1:1', 'agent', randomUUID(), { env: { OTEL_TRACES_EXPORTER: 'jaeger' }, children });
    expect((await daemon.exited).code).toBe(2);
    expect(daemon.stderr()).toMatch(/sf-daemon: OTEL_TRACES_EXPORTER: "jaeger" is not an exporter/);
  });
});
