// A stand-in for an OpenTelemetry Collector's OTLP/HTTP receiver, for the tests and benches
// that run the tier or sf-daemon with traces on (OTEL_TRACES_EXPORTER=otlp,
// OTEL_EXPORTER_OTLP_ENDPOINT=sink.endpoint): it answers every export 200 and counts the
// spans that arrived; told to `keep` them, it decodes each export (OTLP/JSON, what the
// exporter built in sends) into spans with their process's resource.
import { createServer } from 'node:http';
import { gunzipSync } from 'node:zlib';

/** One span as it arrived, with its process's service.name and service.instance.id. */
export interface ExportedSpan {
  service: string;
  instance: string;
  traceId: string;
  spanId: string;
  /** '' or absent for a root. */
  parentSpanId?: string;
  name: string;
  /** OTLP's numbering: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
}

export interface OtlpSink {
  /** The base URL (OTEL_EXPORTER_OTLP_ENDPOINT); exports are posted to /v1/traces under it. */
  readonly endpoint: string;
  /** Every export: its path and content type. */
  readonly requests: { path: string; contentType: string }[];
  /** Spans received so far (every export's, counted without decoding unless kept). */
  readonly spans: number;
  /** The spans decoded, when started with `keep`. */
  readonly received: ExportedSpan[];
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
type OtlpAttributes = { key: string; value: OtlpValue }[] | undefined;
interface OtlpExport {
  resourceSpans?: { resource?: { attributes?: OtlpAttributes }; scopeSpans?: { spans?: (Omit<ExportedSpan, 'service' | 'instance' | 'attributes'> & { attributes?: OtlpAttributes })[] }[] }[];
}

const valueOf = (v: OtlpValue): unknown => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue));
const attributesOf = (a: OtlpAttributes): Record<string, unknown> => Object.fromEntries((a ?? []).map(({ key, value }) => [key, valueOf(value)]));

/** How many spans an OTLP/JSON export holds, without parsing it: each has one "spanId". */
function countSpans(body: Buffer): number {
  const needle = Buffer.from('"spanId"');
  let n = 0;
  for (let i = body.indexOf(needle); i >= 0; i = body.indexOf(needle, i + needle.length)) n += 1;
  return n;
}

/** Listens on a free loopback port. */
export async function startOtlpSink(opts: { keep?: boolean } = {}): Promise<OtlpSink> {
  const requests: OtlpSink['requests'] = [];
  const received: ExportedSpan[] = [];
  let spans = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '' });
      const raw = Buffer.concat(chunks);
      const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
      spans += countSpans(body);
      if (opts.keep) {
        for (const rs of (JSON.parse(body.toString()) as OtlpExport).resourceSpans ?? []) {
          const resource = attributesOf(rs.resource?.attributes);
          for (const s of (rs.scopeSpans ?? []).flatMap((ss) => ss.spans ?? [])) {
            received.push({ ...s, service: String(resource['service.name']), instance: String(resource['service.instance.id']), attributes: attributesOf(s.attributes) });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the OTLP sink has no port');
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    requests,
    get spans() {
      return spans;
    },
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
