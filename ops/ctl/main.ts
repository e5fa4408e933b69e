#!/usr/bin/env node
// sf-ctl: the operator's command. It talks to running replicas (RPCs with caller daemon
// `sf-ctl`, /metrics), never to the tier's internals.
//   sf-ctl [--target host:port] <status|load|audit|stop-daemon|start-daemon|migrate|backup|restore> [options] [--json]
import type { Io } from './cli.js';
import { main } from './ctl.js';

const io: Io = {
  out: (text) => process.stdout.write(text),
  note: (line) => process.stderr.write(`sf-ctl: ${line}\n`),
  env: process.env,
};

void main(process.argv.slice(2), io).then((code) => {
  process.exitCode = code;
  // Every client is closed by now; should a handle linger, leave once the output is written.
  setTimeout(() => process.exit(code), 2000).unref();
});
