// The point read every target runs: the tier's own GetNode statement, taken from
// server/rpc/nodes/queries.ts selectNode itself so the direct and bare targets can never
// drift from it.
import type { Sql } from '../../server/db/sql.js';
import { selectNode } from '../../server/rpc/nodes/queries.js';

/** Runs selectNode against a recorder and answers the statement it issued. */
export async function selectNodeSql(): Promise<string> {
  const issued: string[] = [];
  const refuse = (): never => {
    throw new Error('selectNode was expected to issue one SELECT only');
  };
  const recorder: Sql = {
    rows: async <T extends object>(sql: string): Promise<T[]> => {
      issued.push(sql);
      return [];
    },
    run: async () => refuse(),
    unprepared: async () => refuse(),
    transaction: async () => refuse(),
    bounded: () => recorder,
    withoutReruns: () => recorder,
    owned: () => recorder,
  };
  await selectNode(recorder, '00000000-0000-4000-8000-000000000000');
  if (issued.length !== 1 || !/^SELECT\b/.test(issued[0] ?? '')) throw new Error(`selectNode issued ${JSON.stringify(issued)}`);
  return issued[0] as string;
}
