// One log format: a real sf-database process writes nothing but JSON objects (its log on
// stderr, its serving line on stdout), no object has a key twice, and MariaDB errnos are
// logged under MariaDB's names.
import { describe, expect, it } from 'vitest';
import { createClient } from '../../client/index.js';
import { serializeError } from '../../proto/runtime/log.js';
import { findServingLine } from '../../server/serving.js';
import { spawnTier } from '../helpers/process.js';
import { createTestDatabase, dropTestDatabase, mariadbUrl } from '../helpers/tier.js';

/** The top-level keys of a JSON object text, in order, repeats kept (JSON.parse drops them). */
function topLevelKeys(text: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (depth === 1 && text.slice(j + 1).trimStart().startsWith(':')) keys.push(JSON.parse(text.slice(i, j + 1)) as string);
      i = j;
    } else if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') depth -= 1;
  }
  return keys;
}

describe('log format', () => {
  it('a replica prints only JSON objects, each key once, from start to a drained stop', async () => {
    const database = await createTestDatabase();
    const tier = spawnTier({ env: { SFDB_DATABASE_URL: mariadbUrl(database), SFDB_LOG_LEVEL: 'debug' } });
    try {
      await tier.ready();
      const db = createClient({ targets: `127.0.0.1:${tier.grpcPort}`, callerDaemon: 'test' });
      await db.getClusterStatus();
      await db.getNode('not-a-uuid').catch(() => undefined);
      db.close();
      tier.kill('SIGTERM');
      expect((await tier.exited).code).toBe(0);
    } finally {
      if (tier.proc.exitCode === null) tier.kill('SIGKILL');
      await dropTestDatabase(database);
    }
    const lines = [...tier.stdout().split('\n'), ...tier.stderr().split('\n')].filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) {
      expect(() => JSON.parse(line) as unknown, line).not.toThrow();
      expect(line.startsWith('{'), line).toBe(true);
      const keys = topLevelKeys(line);
      expect(new Set(keys).size, `a key twice in ${line}`).toBe(keys.length);
    }
    const serving = findServingLine(tier.stdout());
    expect(serving?.grpc).toBe(`127.0.0.1:${tier.grpcPort}`);
    expect(serving?.http).toBe(`127.0.0.1:${tier.httpPort}`);
    expect(tier.stderr()).toContain('"msg":"sf-database serving"');
  });

  it('finds a repeated key (the check above can fail)', () => {
    expect(topLevelKeys('{"a":1,"b":{"a":2},"s":"x\\":y","a":3}')).toEqual(['a', 'b', 's', 'a']);
  });

  it("names MariaDB's own errnos as MariaDB does, never by MySQL's table", () => {
    const sqlError = (errno: number, code: string): Error => Object.assign(new Error('x'), { errno, code, sqlState: 'HY000' });
    // mysql2 calls 4025 ER_INNODB_AUTOEXTEND_SIZE_OUT_OF_RANGE; in MariaDB it is a CHECK failure.
    expect(serializeError(sqlError(4025, 'ER_INNODB_AUTOEXTEND_SIZE_OUT_OF_RANGE'))).toMatchObject({ errno: 4025, code: 'ER_CONSTRAINT_FAILED' });
    // Shared numbering below 1900 keeps mysql2's name.
    expect(serializeError(sqlError(1062, 'ER_DUP_ENTRY'))).toMatchObject({ errno: 1062, code: 'ER_DUP_ENTRY' });
    // A MariaDB errno we have no name for keeps its number and loses the wrong name.
    const unknown = serializeError(sqlError(4150, 'ER_SOMETHING_FROM_MYSQL')) as Record<string, unknown>;
    expect(unknown['errno']).toBe(4150);
    expect(unknown['code']).toBeUndefined();
  });
});
