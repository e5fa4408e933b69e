// Server reflection is indexed per reflection stream, not held by the replica: nothing is
// indexed until a client asks, and what a client asks is answered as @grpc/reflection
// answers it (both API versions).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOADER_OPTIONS, loadDatabaseProto } from '../../proto/load.js';
import { addLazyReflection } from '../../server/grpc/reflection.js';
import type { ReflectionUse } from '../../server/grpc/reflection.js';

const require = createRequire(import.meta.url);
const protoDir = join(dirname(require.resolve('@grpc/reflection/package.json')), 'build', 'proto');

interface Answer {
  listServicesResponse?: { service: { name: string }[] };
  fileDescriptorResponse?: { fileDescriptorProto: Buffer[] };
  errorResponse?: { errorCode: number; errorMessage: string };
}

/** One request on a reflection stream of `version`, its one answer. */
function ask(address: string, version: 'v1' | 'v1alpha', request: object): Promise<Answer> {
  const definition = protoLoader.loadSync(join(protoDir, 'grpc', 'reflection', version, 'reflection.proto'), { keepCase: false, longs: String, defaults: true, oneofs: true });
  const pkg = grpc.loadPackageDefinition(definition) as unknown as {
    grpc: { reflection: Record<string, { ServerReflection: grpc.ServiceClientConstructor }> };
  };
  const Client = pkg.grpc.reflection[version]?.ServerReflection as grpc.ServiceClientConstructor;
  const client = new Client(address, grpc.credentials.createInsecure());
  return new Promise((resolve, reject) => {
    const stream = (client as unknown as { serverReflectionInfo(): grpc.ClientDuplexStream<object, Answer> }).serverReflectionInfo();
    stream.on('data', (answer: Answer) => {
      resolve(answer);
      stream.end();
      client.close();
    });
    stream.on('error', reject);
    stream.write(request);
  });
}

/** A protobuf varint: the length prefix of a length-delimited field. */
function varint(n: number): Buffer {
  const out: number[] = [];
  for (; n > 0x7f; n >>>= 7) out.push((n & 0x7f) | 0x80);
  out.push(n);
  return Buffer.from(out);
}

let server: grpc.Server;
let address: string;
let use: ReflectionUse;

beforeAll(async () => {
  server = new grpc.Server();
  use = addLazyReflection(server, loadDatabaseProto().packageDefinition);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  address = `127.0.0.1:${port}`;
});
afterAll(() => {
  server.forceShutdown();
});

describe('server reflection', () => {
  it('indexes nothing until a client asks, then once per stream', async () => {
    expect(use.indexed).toBe(0);
    const answer = await ask(address, 'v1', { listServices: '*' });
    expect(answer.listServicesResponse?.service.map((s) => s.name)).toContain('sfdb.v1.Database');
    expect(use.indexed).toBe(1);
  });

  it('answers the file of a symbol, on both API versions', async () => {
    for (const version of ['v1', 'v1alpha'] as const) {
      const answer = await ask(address, version, { fileContainingSymbol: 'sfdb.v1.Database' });
      const files = answer.fileDescriptorResponse?.fileDescriptorProto ?? [];
      expect(files.length).toBeGreaterThan(0);
      expect(Buffer.concat(files).toString('latin1')).toContain('GetNode');
    }
  });

  it('answers the service with every file it depends on: a client rebuilds the whole contract from it', async () => {
    const answer = await ask(address, 'v1', { fileContainingSymbol: 'sfdb.v1.Database' });
    const files = answer.fileDescriptorResponse?.fileDescriptorProto ?? [];
    // A FileDescriptorSet is its files as field 1, each length-delimited (tag 0x0a).
    const set = Buffer.concat(files.flatMap((f) => [Buffer.from([0x0a]), varint(f.length), f]));
    // Resolving every type fails when a file the service needs is missing from the answer.
    const rebuilt = protoLoader.loadFileDescriptorSetFromBuffer(set, LOADER_OPTIONS);
    const contract = loadDatabaseProto().packageDefinition;
    expect(Object.keys(rebuilt).sort()).toEqual(Object.keys(contract).sort());
    expect(Object.keys(rebuilt['sfdb.v1.Database'] ?? {})).toEqual(Object.keys(contract['sfdb.v1.Database'] ?? {}));
  });

  it('answers a symbol it does not know NOT_FOUND', async () => {
    const answer = await ask(address, 'v1', { fileContainingSymbol: 'no.such.Service' });
    expect(answer.errorResponse?.errorCode).toBe(grpc.status.NOT_FOUND);
  });
});
