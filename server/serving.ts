// The one line a replica prints on stdout once it serves: JSON, like its log lines on
// stderr, so a journal that merges both is one format. Tests, benchmarks and supervisors
// read the bound addresses from it.

export interface ServingLine {
  event: 'serving';
  replica: string;
  /** host:port actually bound (port 0 in the settings means "any free one"). */
  grpc: string;
  http: string;
}

export function servingLine(line: Omit<ServingLine, 'event'>): string {
  return `${JSON.stringify({ event: 'serving', ...line } satisfies ServingLine)}\n`;
}

/** The serving line in `stdout` so far, or undefined while it has not been printed. */
export function findServingLine(stdout: string): ServingLine | undefined {
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{"event":"serving"')) continue;
    try {
      return JSON.parse(line) as ServingLine;
    } catch {
      // the line is still arriving
    }
  }
  return undefined;
}

/** The port of a host:port (IPv6 hosts in brackets or not). */
export function portOf(address: string): number {
  return Number(address.slice(address.lastIndexOf(':') + 1));
}
