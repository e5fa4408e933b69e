// Caller metadata that is no valid claim is INVALID_ARGUMENT naming the header, however it
// arrives: bytes outside printable ASCII (grpc-js would drop the entry and the call would
// be served as unclaimed), a -bin key, a value sent twice, a malformed uuid or daemon
// name. The refused call runs no statement and writes nothing. Sent by hand over HTTP/2
// (test/property/http2.ts): grpc-js refuses to send most of these.
import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { metricValue } from '../../harness/scrape.js';
import { spawnTier } from '../helpers/process.js';
import { createTestDatabase, dropTestDatabase, mariadbUrl, useTestTier } from '../helpers/tier.js';
import { frame, h2call } from '../property/http2.js';
import type { H2Answer } from '../property/http2.js';
import { RawClient, encode } from '../property/raw.js';

const { t } = useTestTier();

const NODE = 'x-sfdb-caller-node';
const DAEMON = 'x-sfdb-caller-daemon';
/** A string whose chars are these UTF-8 bytes, as node:http2 sends a header value (one byte per char). */
const utf8Bytes = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');

function call(method: string, request: unknown, headers: Record<string, string | string[]>, port = t.tier.grpcPort): Promise<H2Answer> {
  return h2call(port, { path: `/sfdb.v1.Database/${method}`, headers, body: [frame(encode(method, request) as Buffer)] });
}

const getNode = (headers: Record<string, string | string[]>): Promise<H2Answer> => call('GetNode', { uuid: randomUUID() }, headers);

function refused(answer: H2Answer, header: string, why: RegExp): void {
  expect(answer.error).toBeUndefined();
  expect(answer.grpcStatus, answer.grpcMessage).toBe(grpc.status.INVALID_ARGUMENT);
  expect(answer.grpcMessage?.startsWith(`${header}: `), answer.grpcMessage).toBe(true);
  expect(answer.grpcMessage).toMatch(why);
}

describe('caller metadata', () => {
  it('serves a valid claim (the hand-made calls below are well formed otherwise)', async () => {
    const answer = await getNode({ [NODE]: randomUUID(), [DAEMON]: 'queues' });
    expect(answer.grpcStatus, answer.grpcMessage).toBe(grpc.status.OK);
  });

  it('refuses a caller node outside printable ASCII, sent as UTF-8 or as Latin-1 bytes', async () => {
    const uuid = randomUUID();
    refused(await getNode({ [NODE]: utf8Bytes(`${uuid.slice(0, 35)}\u00e9`), [DAEMON]: 'queues' }), NODE, /not printable ASCII/);
    refused(await getNode({ [NODE]: `${uuid.slice(0, 35)}\u00e9`, [DAEMON]: 'queues' }), NODE, /not printable ASCII/);
    refused(await getNode({ [NODE]: utf8Bytes('\u{1F600}'), [DAEMON]: 'queues' }), NODE, /not printable ASCII/);
  });

  it('refuses a caller daemon outside printable ASCII, or not a name', async () => {
    refused(await getNode({ [DAEMON]: utf8Bytes('qu\u00e9ues') }), DAEMON, /not printable ASCII/);
    for (const daemon of ['QUEUES', 'x'.repeat(65), '', '-queues', 'queues/net', 'a b']) {
      refused(await getNode({ [DAEMON]: daemon }), DAEMON, /lower-case letters, digits/);
    }
    for (const daemon of ['queues', 'sf-ctl', 'a', 'x'.repeat(64), 'not-a-daemon-we-know']) {
      expect((await getNode({ [DAEMON]: daemon })).grpcStatus, daemon).toBe(grpc.status.OK);
    }
  });

  it('refuses a caller header sent as a -bin key, or twice, or as no lower-case uuid', async () => {
    const uuid = randomUUID();
    refused(await getNode({ [`${NODE}-bin`]: Buffer.from(uuid).toString('base64'), [DAEMON]: 'queues' }), `${NODE}-bin`, /is text, not a binary header/);
    refused(await getNode({ [`${DAEMON}-bin`]: Buffer.from('queues').toString('base64') }), `${DAEMON}-bin`, /is text/);
    refused(await getNode({ [NODE]: [uuid, uuid], [DAEMON]: 'queues' }), NODE, /not a lower-case uuid/);
    refused(await getNode({ [NODE]: uuid.toUpperCase(), [DAEMON]: 'queues' }), NODE, /not a lower-case uuid/);
    // As grpc-js sends a binary header.
    const raw = new RawClient(`127.0.0.1:${t.tier.grpcPort}`);
    const md = new grpc.Metadata();
    md.set(DAEMON, 'queues');
    md.set(`${NODE}-bin`, Buffer.from(uuid));
    const answer = await raw.send('GetNode', encode('GetNode', { uuid }) as Buffer, md);
    raw.close();
    expect(answer.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(answer.details).toMatch(/^x-sfdb-caller-node-bin: /);
  });

  it('a refused write runs no statement and writes nothing; the refusal is counted as INVALID_ARGUMENT', async () => {
    const before = await t.metrics();
    const nodes = await t.count('nodes');
    const uuid = randomUUID();
    const create = (headers: Record<string, string | string[]>): Promise<H2Answer> => call('CreateNode', { uuid, fqdn: `n-${uuid}.test` }, headers);
    refused(await create({ [NODE]: utf8Bytes(`${uuid.slice(0, 35)}\u00e9`), [DAEMON]: 'queues' }), NODE, /not printable ASCII/);
    refused(await create({ [NODE]: uuid, [DAEMON]: utf8Bytes('qu\u00e9ues') }), DAEMON, /not printable ASCII/);
    const after = await t.metrics();
    expect(await t.count('nodes')).toBe(nodes);
    expect(metricValue(after, 'database_queries_total', { source: 'rpc' })).toBe(metricValue(before, 'database_queries_total', { source: 'rpc' }));
    const errors = (text: string): number => metricValue(text, 'database_request_errors_total', { operation: 'CreateNode', code: 'INVALID_ARGUMENT' });
    expect(errors(after) - errors(before)).toBe(2);
  });
});

describe('what a replica logs of them', () => {
  it('only JSON lines, never the value a client sent', async () => {
    const database = await createTestDatabase();
    const tier = spawnTier({ env: { SFDB_DATABASE_URL: mariadbUrl(database), SFDB_LOG_LEVEL: 'debug' } });
    try {
      await tier.ready();
      const secret = 'zq-leaked-\u00e9-4242';
      const answers = [
        await call('GetNode', { uuid: randomUUID() }, { [NODE]: utf8Bytes(secret), [DAEMON]: 'queues' }, tier.grpcPort),
        await call('GetNode', { uuid: randomUUID() }, { [DAEMON]: 'queues', 'x-other': secret }, tier.grpcPort),
        await call('GetNode', { uuid: randomUUID() }, { [DAEMON]: 'queues', [`x-${'k'.repeat(10)}`]: utf8Bytes(secret) }, tier.grpcPort),
      ];
      expect(answers.map((a) => a.grpcStatus)).toEqual([grpc.status.INVALID_ARGUMENT, grpc.status.OK, grpc.status.OK]);
      tier.kill('SIGTERM');
      expect((await tier.exited).code).toBe(0);
    } finally {
      if (tier.proc.exitCode === null) tier.kill('SIGKILL');
      await dropTestDatabase(database);
    }
    const lines = tier.stderr().split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
    expect(tier.stderr()).not.toContain('zq-leaked');
  });
});
