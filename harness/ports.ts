// The harness's one port policy. A child that can bind port 0 does, and reports what it
// bound (a replica's serving line, Prometheus's "Listening on" line): nothing can take the
// port between a pick and the bind. A server that cannot report is given a picked port,
// and a launch that fails to bind it is tried again with a fresh pick: mariadbd
// (EmbeddedMariaDb.start, in server/ because `npm start` uses it) and a Galera node's four
// ports (EmbeddedGalera.launch, picked here below the ephemeral range).
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { freePort } from '../server/embedded/mariadb.js';

/**
 * A free port below the kernel's ephemeral range, for a server that binds it later. Galera
 * binds its ports seconds after they are picked (a joiner's IST and SST ports only when its
 * state transfer begins); a port from
 * the ephemeral range can meanwhile become the local end of any outgoing connection on the
 * machine. A port outside it can collide only with another pick like this one.
 */
export async function latePort(): Promise<number> {
  const [ephemeralLow] = ephemeralPortRange();
  const low = 10_000;
  if (ephemeralLow - low < 1_000) return freePort();
  for (let tries = 0; tries < 50; tries++) {
    const port = randomInt(low, ephemeralLow);
    if (await canBind(port)) return port;
  }
  return freePort();
}

function ephemeralPortRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && high) return [low, high];
  } catch {
    // Not Linux: the IANA range.
  }
  return [49152, 65535];
}

function canBind(port: number): Promise<boolean> {
  return new Promise((resolveBind) => {
    const srv = createServer();
    srv.once('error', () => resolveBind(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolveBind(true)));
  });
}

