// What the mTLS tests share: real certificates made by scripts/dev-ca.sh (openssl), and
// the refusal they expect of a certificate that does not allow a call.
import { execFileSync } from 'node:child_process';
import * as grpc from '@grpc/grpc-js';
import { expect } from 'vitest';
import { DatabaseError } from '../../client/index.js';

/** `scripts/dev-ca.sh DIR ca|replica ID|node UUID|operator NAME` (`env`: e.g. EXPIRED=1). */
export function devCa(dir: string, args: string[], env?: Record<string, string>): void {
  execFileSync('bash', ['scripts/dev-ca.sh', dir, ...args], { env: env && { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** The call's refusal, which must be PERMISSION_DENIED. */
export async function permissionDenied(call: Promise<unknown>): Promise<DatabaseError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DatabaseError);
  expect((err as DatabaseError).code).toBe(grpc.status.PERMISSION_DENIED);
  return err as DatabaseError;
}
