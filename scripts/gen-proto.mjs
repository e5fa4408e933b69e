#!/usr/bin/env node
// Regenerates the TypeScript types of proto/sfdb/v1/database.proto (and the family files
// it imports) into proto/gen/.
// The options here must match the loader options in proto/load.ts; the test
// test/unit/proto-gen.test.ts fails when the committed output is stale.
//
//   node scripts/gen-proto.mjs            writes proto/gen/
//   node scripts/gen-proto.mjs --out DIR  writes DIR instead (used by the staleness test)
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outFlag = process.argv.indexOf('--out');
const outDir = outFlag >= 0 ? process.argv[outFlag + 1] : join(root, 'proto', 'gen');
if (!outDir) {
  console.error('usage: gen-proto.mjs [--out DIR]');
  process.exit(2);
}

rmSync(outDir, { recursive: true, force: true });
execFileSync(
  process.execPath,
  [
    join(root, 'node_modules', '@grpc', 'proto-loader', 'build', 'bin', 'proto-loader-gen-types.js'),
    '--longs=String',
    '--enums=String',
    '--defaults',
    '--oneofs',
    '--grpcLib=@grpc/grpc-js',
    '--importFileExtension=.js',
    '--includeComments',
    '-I', 'proto',
    '-O', outDir,
    'sfdb/v1/database.proto',
  ],
  { stdio: 'inherit', cwd: root },
);
