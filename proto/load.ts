// Loads the sfdb.v1 contract at run time. Both server/ and client/ use this module and
// the generated types beside it, never each other.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { ProtoGrpcType } from './gen/database.js';

/** Loader options; scripts/gen-proto.mjs generates the types with the same ones. */
export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: false,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};

const PROTO_FILE = 'sfdb/v1/database.proto';

/**
 * The directory holding `sfdb/v1/database.proto` and the family files it imports (the
 * include directory their imports resolve from): this package's own folder, found from
 * this module (beside it when it runs from source, one up from the package's dist/) — never
 * through the working directory or a checkout.
 */
export function protoRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [here, join(here, '..')]) {
    if (existsSync(join(candidate, PROTO_FILE))) return candidate;
  }
  throw new Error(`cannot find ${PROTO_FILE} near ${here}`);
}

let cached: { packageDefinition: protoLoader.PackageDefinition; proto: ProtoGrpcType } | undefined;

export function loadDatabaseProto(): { packageDefinition: protoLoader.PackageDefinition; proto: ProtoGrpcType } {
  if (!cached) {
    const packageDefinition = protoLoader.loadSync(PROTO_FILE, { ...LOADER_OPTIONS, includeDirs: [protoRoot()] });
    const proto = grpc.loadPackageDefinition(packageDefinition) as unknown as ProtoGrpcType;
    cached = { packageDefinition, proto };
  }
  return cached;
}
