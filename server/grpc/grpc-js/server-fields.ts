// Two private fields of grpc-js's Server, where it leaves the HTTP/2 connections to Node.
//
// commonServerOptions: the options grpc-js hands Node for each port it binds. grpc-js
// (1.14) passes no header-list limit and Node advertises none, so a client cannot know
// what the tier accepts. limitHeaderList() adds SETTINGS_MAX_HEADER_LIST_SIZE: Node
// advertises it and resets (ENHANCE_YOUR_CALM; grpc-js clients report RESOURCE_EXHAUSTED)
// the one stream whose header block is larger; the other calls on the connection go on.
//
// http2Servers: Node's HTTP/2 server of each bound port and its open sessions. grpc-js
// exposes neither, and the tier's connection guard (../connections.ts) watches every
// session: watchSessions() hands it the open ones and each new one.
import type * as http2 from 'node:http2';
import type * as grpc from '@grpc/grpc-js';

/** The parts of grpc-js's Server this module reaches; checked, so an upgrade that moves them fails at start. */
interface ServerInternals {
  commonServerOptions?: http2.ServerOptions;
  http2Servers?: Map<http2.Http2Server | http2.Http2SecureServer, { sessions?: Set<http2.ServerHttp2Session> }>;
}

function internals(server: grpc.Server, field: keyof ServerInternals): ServerInternals {
  const s = server as unknown as ServerInternals;
  if (typeof s[field] !== 'object' || s[field] === null) {
    throw new Error(`@grpc/grpc-js no longer has Server.${field}: server/grpc/grpc-js/server-fields.ts needs updating`);
  }
  return s;
}

/** Advertise and enforce `bytes` as the largest request header block. Call before bind. */
export function limitHeaderList(server: grpc.Server, bytes: number): void {
  const options = internals(server, 'commonServerOptions').commonServerOptions as http2.ServerOptions;
  options.settings = { ...options.settings, maxHeaderListSize: bytes };
}

/** Calls `watch` with every open HTTP/2 session of `server`'s bound ports, and with each new one. Call after bind. */
export function watchSessions(server: grpc.Server, watch: (session: http2.ServerHttp2Session) => void): void {
  const servers = internals(server, 'http2Servers').http2Servers as NonNullable<ServerInternals['http2Servers']>;
  for (const [http2Server, info] of servers) {
    http2Server.on('session', watch);
    for (const session of info.sessions ?? []) watch(session);
  }
}
