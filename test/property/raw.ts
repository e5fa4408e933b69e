// Calls as an outside client makes them: a plain grpc-js channel (no typed client, no
// retries), the request encoded here so that what reaches the tier is exactly these
// bytes, the answer's status taken as it came. Plus the row checksums the properties
// compare around refused calls, and the in-flight gauge.
import * as grpc from '@grpc/grpc-js';
import type { Connection } from 'mysql2/promise';
import { loadDatabaseProto } from '../../proto/load.js';
import { errorField } from '../../proto/errors.js';
import { CALLER_DAEMON_HEADER, CALLER_NODE_HEADER } from '../../proto/metadata.js';
import { metricValue } from '../../harness/scrape.js';

export interface Answer {
  code: number;
  details: string;
  /** The field the refusal's trailers name (proto/errors.ts x-sfdb-error-field); '' when none. */
  field: string;
  /** The decoded response of an OK answer. */
  response?: unknown;
  /** Set when the answer's bytes do not decode as the method's response message. */
  decodeError?: string;
}

type Codec = {
  requestSerialize: (v: unknown) => Buffer;
  requestDeserialize: (b: Buffer) => unknown;
  responseDeserialize: (b: Buffer) => unknown;
  path: string;
};

const service = loadDatabaseProto().proto.sfdb.v1.Database.service as unknown as Record<string, Codec>;

export const codeName = (code: number): string => grpc.status[code] ?? String(code);

/** The request's bytes as protobufjs encodes them, or the encoder's complaint (then nothing is sent). */
export function encode(method: string, request: unknown): Buffer | string {
  const codec = service[method];
  if (!codec) throw new Error(`no method ${method}`);
  try {
    return codec.requestSerialize(request);
  } catch (err) {
    return `client refused to encode: ${(err as Error).message}`;
  }
}

/** The request as the tier decodes `bytes` (the same proto-loader options), or undefined when they do not decode. */
export function decode(method: string, bytes: Buffer): Record<string, unknown> | undefined {
  try {
    return service[method]?.requestDeserialize(bytes) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

export interface CallerHeaders {
  daemon?: string;
  node?: string;
  /** Any other headers, sent as given. */
  extra?: [string, string][];
}

export function metadataOf(h: CallerHeaders): grpc.Metadata {
  const md = new grpc.Metadata();
  if (h.daemon !== undefined) md.set(CALLER_DAEMON_HEADER, h.daemon);
  if (h.node !== undefined) md.set(CALLER_NODE_HEADER, h.node);
  for (const [k, v] of h.extra ?? []) md.add(k, v);
  return md;
}

export class RawClient {
  private readonly client: grpc.Client;

  constructor(readonly target: string, options: grpc.ChannelOptions = {}) {
    this.client = new grpc.Client(target, grpc.credentials.createInsecure(), { 'grpc.enable_retries': 0, ...options });
  }

  /** Sends `body` as the request of `method` (any bytes) and answers the status. */
  send(method: string, body: Buffer, headers: CallerHeaders | grpc.Metadata = { daemon: 'test' }, deadlineMs = 15_000): Promise<Answer> {
    const codec = service[method];
    const path = codec?.path ?? `/sfdb.v1.Database/${method}`;
    const md = headers instanceof grpc.Metadata ? headers : metadataOf(headers);
    return new Promise((resolve) => {
      this.client.makeUnaryRequest(
        path,
        (b: Buffer) => b,
        (b: Buffer) => b,
        body,
        md,
        { deadline: Date.now() + deadlineMs },
        (err, bytes) => {
          if (err) {
            resolve({ code: err.code, details: err.details, field: errorField(err.metadata) });
            return;
          }
          const answer: Answer = { code: grpc.status.OK, details: '', field: '' };
          try {
            answer.response = codec?.responseDeserialize(bytes as Buffer);
          } catch (e) {
            answer.decodeError = (e as Error).message;
          }
          resolve(answer);
        },
      );
    });
  }

  close(): void {
    this.client.close();
  }
}

/**
 * Tables whose rows a refused call must leave alone: every table of the test database but
 * the tier's own bookkeeping, which changes under the calls by itself: `tier_replicas`
 * (each replica's registry heartbeat rewrites its row every few seconds) and the
 * migration records (`schema_migrations`, `schema_migration_lease`: written at start, not
 * by RPCs, and not data a caller can touch). The change feed (`changes`) is compared:
 * only committed writes append to it, and nothing prunes it unless PruneChanges is called.
 */
export async function comparedTables(direct: Connection): Promise<string[]> {
  const [rows] = await direct.query(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = DATABASE() AND table_name NOT IN ('tier_replicas', 'schema_migrations', 'schema_migration_lease')
      ORDER BY table_name`,
  );
  return (rows as { name: string }[]).map((r) => r.name);
}

/** CHECKSUM TABLE of each table (one statement): `table -> checksum`. */
export async function checksums(direct: Connection, tables: readonly string[]): Promise<Map<string, string>> {
  const [rows] = await direct.query(`CHECKSUM TABLE ${tables.map((t) => `\`${t}\``).join(', ')}`);
  return new Map((rows as { Table: string; Checksum: string | null }[]).map((r) => [r.Table.slice(r.Table.indexOf('.') + 1), String(r.Checksum)]));
}

/** The tables whose checksum differs. */
export function changedTables(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string[] {
  return [...after].filter(([t, sum]) => before.get(t) !== sum).map(([t]) => t);
}

/** The tier's database_requests_in_flight gauge, from its /metrics text. */
export function inFlight(metricsText: string): number {
  return metricValue(metricsText, 'database_requests_in_flight');
}

/** JSON of a request for a failure message, long strings cut. */
export function show(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v === 'string' && v.length > 120) return `${v.slice(0, 60)}…(${v.length} chars)`;
    if (Array.isArray(v) && v.length > 4) return [...v.slice(0, 3), `…(${v.length} items)`];
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 6) {
      return { ...Object.fromEntries(Object.entries(v).slice(0, 3)), '…': `${Object.keys(v).length} keys` };
    }
    return v;
  });
}
