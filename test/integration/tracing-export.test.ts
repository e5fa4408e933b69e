// Traces as an operator gets them: a real tier process and a real sf-daemon, each told by
// the standard variables (OTEL_TRACES_EXPORTER=otlp, OTEL_EXPORTER_OTLP_ENDPOINT, the
// sampler, the service name) to export OTLP/HTTP to a collector — here an HTTP server
// that decodes what arrives (JSON, what the exporter built in sends). The agent's
// heartbeat is one trace across the two processes: its iteration (sf-daemon), the
// NodeHeartbeat client call under it (sf-daemon), the tier's call under that (sf-database).
// Both processes are stopped with SIGTERM: what they traced is flushed as they stop. The
// collector is the harness's stand-in (harness/otlp-sink.ts), decoding what arrives.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../client/index.js';
import type { ProcessCluster } from '../../harness/cluster.js';
import { startOtlpSink } from '../../harness/otlp-sink.js';
import type { ExportedSpan, OtlpSink } from '../../harness/otlp-sink.js';
import { spawnTier, testCluster } from '../helpers/process.js';
import { sfDaemon } from '../helpers/sf-daemon.js';
import { waitFor } from '../helpers/wait.js';

// OTLP's span kinds (opentelemetry/proto/trace/v1/trace.proto).
const INTERNAL = 1;
const SERVER = 2;
const CLIENT = 3;

let collector: OtlpSink;
let cluster: ProcessCluster;
const children: ChildProcess[] = [];

beforeAll(async () => {
  collector = await startOtlpSink({ keep: true });
  cluster = testCluster(['traced'], {
    env: { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_TRACES_SAMPLER: 'parentbased_always_on', OTEL_SERVICE_NAME: 'tier-under-test' },
  });
  await cluster.start();
});

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await cluster?.stop();
  await collector?.close();
});

describe('OTLP export from the tier and sf-daemon', () => {
  it("one trace from the daemon's iteration through its call to the tier's, flushed as both processes stop", async () => {
    const replica = cluster.replica('traced');
    const nodeUuid = randomUUID();
    const operator = createClient({ targets: replica.grpcAddress, callerDaemon: 'sf-ctl', cache: false });
    await operator.createNode({ uuid: nodeUuid, fqdn: `traced-${nodeUuid.slice(0, 8)}.example.com` });
    operator.close();
    const daemon = sfDaemon(replica.grpcAddress, 'agent', nodeUuid, {
      env: { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.endpoint}/v1/traces`, OTEL_TRACES_SAMPLER: 'always_on', SFDB_LOG_LEVEL: 'warn' },
      children,
    });
    await daemon.running();
    daemon.proc.kill('SIGTERM');
    expect((await daemon.exited).code).toBe(0);
    const status = await cluster.terminate('traced', 'SIGTERM', 30_000);
    expect(status.code).toBe(0);

    // Exported by then (the stop flushes); a look or two for the collector's last request.
    const received = collector.received;
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
    // The operator's call brought no trace context: a root the tier's call layer drew
    // (parentbased_always_on keeps every one) and its SDK sampled.
    const created = received.filter((s) => s.kind === SERVER && s.name === 'sfdb.v1.Database/CreateNode');
    expect(created.map((s) => [s.service, s.parentSpanId ?? ''])).toEqual([['tier-under-test', '']]);
    expect(created[0]?.attributes).toMatchObject({ 'sfdb.caller_daemon': 'sf-ctl', 'sfdb.admission': 'admitted', 'rpc.grpc.status_code': 0 });
    // OTLP/HTTP, as JSON, where the variables said: the base endpoint + /v1/traces for the tier, the traces endpoint as given for sf-daemon.
    expect(new Set(collector.requests.map((r) => `${r.path} ${r.contentType}`))).toEqual(new Set(['/v1/traces application/json']));
  });
});

describe('a bad tracing variable', () => {
  it('stops sf-database and sf-daemon at start, naming the variable (exit 2)', async () => {
    const tier = spawnTier({ env: { OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'sometimes' } });
    expect((await tier.exited).code).toBe(2);
    expect(tier.stderr()).toMatch(/sf-database: OTEL_TRACES_SAMPLER: "sometimes" is not one of the samplers built in/);
    const daemon = sfDaemon('127.0.0.1:1', 'agent', randomUUID(), { env: { OTEL_TRACES_EXPORTER: 'jaeger' }, children });
    expect((await daemon.exited).code).toBe(2);
    expect(daemon.stderr()).toMatch(/sf-daemon: OTEL_TRACES_EXPORTER: "jaeger" is not one of the trace exporters built in/);
  });
});
