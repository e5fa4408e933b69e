// bench:edge's hostile client, a child process of the bench (forked by path) so that its
// work does not slow the neighbour whose latency the bench measures:
//   attacker.ts slow <address> <calls>     a slow reader (harness/raw-grpc.ts) sending
//       <calls> ListInstances of page_size 1000; its tally to the parent every 250 ms
//       until the parent sends 'stop', then the last one and exit;
//   attacker.ts read <address> <calls>     the same calls from a connection that reads them (a control);
//   attacker.ts churn <address> <per-second> <ms>   cancelled GetNode streams at that rate
//       for that long; its tally to the parent at the end.
import { SlowReader, churnStreams, databaseRequest } from '../../harness/raw-grpc.js';

const [mode, address, a, b] = process.argv.slice(2);

function send(message: unknown): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  if (address === undefined) throw new Error('usage: attacker.ts slow|churn <address> ...');
  if (mode === 'slow' || mode === 'read') {
    const reader = new SlowReader(address, { reads: mode === 'read' });
    await reader.connected();
    reader.send('ListInstances', databaseRequest('ListInstances', { pageSize: 1000 }), Number(a));
    const report = setInterval(() => send({ tally: reader.tally, open: reader.open }), 250);
    process.on('message', (m) => {
      if (m !== 'stop') return;
      clearInterval(report);
      send({ tally: reader.tally, open: reader.open, final: true });
      reader.close();
      process.disconnect();
    });
    return;
  }
  if (mode === 'churn') {
    const request = databaseRequest('GetNode', { uuid: '00000000-0000-4000-8000-000000000000' });
    const tally = await churnStreams(address, 'GetNode', request, Number(a), Number(b));
    send({ tally, final: true });
    process.disconnect();
    return;
  }
  throw new Error(`unknown mode ${mode}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`attacker: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
