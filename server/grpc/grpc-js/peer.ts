// Which HTTP/2 connection a grpc-js call is on. grpc-js hands the tier a call, never its
// stream or session; what it does give, `call.getPeer()`, is its session socket's
// `${remoteAddress}:${remotePort}` (grpc-js 1.14 `BaseServerInterceptingCall.getPeer`), a
// name of one TCP connection at a time. peerOfSession() names a session the same way, so
// the tier can find a call's connection (the answer backlog, ../backlog.ts).
// test/integration/edge-memory.test.ts fails if the two stop matching: the backlog of a
// slow reader would then refuse nothing.

/** What peerOfSession reads of a ServerHttp2Session. */
export interface PeerSocket {
  readonly socket?: { remoteAddress?: string; remotePort?: number } | null;
}

/** The name grpc-js's `getPeer()` gives the calls of `session`, or undefined once its socket is gone. */
export function peerOfSession(session: PeerSocket): string | undefined {
  const socket = session.socket;
  if (!socket?.remoteAddress || !socket.remotePort) return undefined;
  return `${socket.remoteAddress}:${socket.remotePort}`;
}
