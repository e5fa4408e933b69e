// The mysql2 pools and the tier's database handle: how a pool is opened, what it holds
// when scraped, and Database — statements bound to a query source (db/bound-sql.ts) so
// every statement is counted under database_queries_total{source}. The Sql interface is
// db/sql.ts, the failure mapping db/failures.ts.
import mysql from 'mysql2/promise';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import type { Metrics, QuerySource } from '../metrics.js';
import { BoundSql } from './bound-sql.js';
import { ReadCoalescer } from './coalescer.js';
import { checkPoolInternals, poolOccupancy } from './pool-internals.js';
import { PairOwner, TIER_CALLER, sqlComment } from './owner.js';
import { Reachability } from './reachability.js';
import { NO_SLOW_STATEMENTS } from './slow.js';
import type { SlowStatements } from './slow.js';
import { StatementWatchdog } from './watchdog.js';
import type { Sql } from './sql.js';


/** Names the statements a new pool connection sends before its first (the tier's own, db/owner.ts). */
const CONNECT_COMMENT = sqlComment({ caller: TIER_CALLER, operation: 'connect' });

/**
 * How long a new connection to MariaDB may take (TCP connect and handshake) before it
 * fails (mysql2 `connectTimeout`, ETIMEDOUT): the pool's, the kill connection's, the
 * first probe's.
 */
export const CONNECT_TIMEOUT_MS = 5_000;

export interface PoolOptions {
  url: string;
  connectionLimit: number;
  /** Statements that may wait for a connection; beyond, they fail at once (0 = no bound). */
  queueLimit?: number;
  /**
   * A Galera node (see serverTraits): every statement is causal (wsrep_sync_wait = 7:
   * reads, updates, deletes and inserts wait until this node has applied every write the
   * cluster acknowledged before them), so a claim made through one node is resolved, and
   * a write made through one node is read, through any other.
   */
  galera?: boolean;
  /**
   * Prepared statements one connection keeps open (mysql2 closes the least recently used
   * past it; 16 000 unless told). A statement's text names its caller and operation
   * (owner.ts), so a connection prepares a text once per pair that sends it: without a
   * bound, replicas × connections × pairs could reach MariaDB's max_prepared_stmt_count
   * (16 382 by default, server-wide), past which every new PREPARE fails.
   */
  maxPreparedStatements?: number;
}

/** What the tier needs to know of its MariaDB before it opens the pool. */
export async function serverTraits(url: string): Promise<{ galera: boolean }> {
  const conn = await mysql.createConnection({ uri: url, connectTimeout: CONNECT_TIMEOUT_MS });
  try {
    const [rows] = await conn.query<RowDataPacket[]>(`SHOW VARIABLES LIKE 'wsrep_on'${CONNECT_COMMENT}`);
    return { galera: String((rows[0] as { Value?: string } | undefined)?.Value ?? 'OFF').toUpperCase() === 'ON' };
  } finally {
    await conn.end();
  }
}

export function createPool(options: PoolOptions): Pool {
  const pool = mysql.createPool({
    uri: options.url,
    connectionLimit: options.connectionLimit,
    maxIdle: options.connectionLimit,
    ...(options.maxPreparedStatements !== undefined ? { maxPreparedStatements: options.maxPreparedStatements } : {}),
    waitForConnections: true,
    queueLimit: options.queueLimit ?? 0,
    connectTimeout: CONNECT_TIMEOUT_MS,
    enableKeepAlive: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
    // JSON columns travel as text, exactly as the client wrote them.
    jsonStrings: true,
    timezone: 'Z',
    charset: 'utf8mb4',
    decimalNumbers: false,
    // mysql2 would capture the caller's stack on every statement (Error.captureStackTrace
    // on the hot path, whether or not it fails); BoundSql adds the caller's stack to an
    // error instead, on the error path only (withCallerStack).
    trace: false,
  });
  // READ COMMITTED: a dequeue's locking scan (FOR UPDATE SKIP LOCKED) then takes no gap
  // locks, so enqueues and other dequeuers never wait behind it. Sent once per new
  // connection, ahead of its first statement.
  pool.pool.on('connection', (conn) => {
    conn.query(`SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED${CONNECT_COMMENT}`);
    if (options.galera) conn.query(`SET SESSION wsrep_sync_wait = 7${CONNECT_COMMENT}`);
  });
  // The pool gauges read mysql2's private queues: a mysql2 that moved them stops here.
  checkPoolInternals(pool);
  return pool;
}

/**
 * The sources of the replica's own coordination: its registry heartbeat and peer reads,
 * the change-feed tail. With an own pool (Database's `ownPool`) they never wait behind
 * client calls, and a full client queue never sheds them: a replica overloaded by a start
 * storm must not miss its heartbeat, lose its registry row and exit (seen at 1,000 nodes).
 */
export const OWN_SOURCES: ReadonlySet<QuerySource> = new Set(['registry', 'changefeed']);

/** The tier's database handle: the client calls' pool (and the replica's own), statements bound to a source on demand. */
export class Database {
  private readonly bound = new Map<QuerySource, Sql>();
  private readonly pairs = new Map<string, Map<string, PairOwner>>();
  private readonly coalescer: ReadCoalescer;
  /** Whether MariaDB answers, from the statements run anyway (health, /readyz). */
  readonly reach = new Reachability();

  constructor(
    readonly pool: Pool,
    private readonly metrics: Metrics,
    /** Stops statements past their call's deadline (Sql.bounded); none: unbounded. */
    private readonly watchdog?: StatementWatchdog,
    /** A small pool, no queue bound, for OWN_SOURCES; none: they share `pool`. */
    private readonly ownPool?: Pool,
    /** Which statements are slow, and where they are logged; none: no statement is. */
    private readonly slow: SlowStatements = NO_SLOW_STATEMENTS,
  ) {
    this.coalescer = new ReadCoalescer(() => metrics.coalescedReads.inc());
    metrics.trackPool(() => poolOccupancy(pool));
  }

  /**
   * Statements of `source`, charged to the tier itself (operation = the source, caller
   * TIER_CALLER) until a call's context makes them its own (Sql.owned).
   */
  sql(source: QuerySource): Sql {
    let s = this.bound.get(source);
    if (!s) {
      const pool = this.ownPool !== undefined && OWN_SOURCES.has(source) ? this.ownPool : this.pool;
      const shared = { pool, metrics: this.metrics, coalescer: this.coalescer, reach: this.reach, watchdog: this.watchdog, slow: this.slow };
      s = new BoundSql(shared, pool, source, this.pairOwner(source, TIER_CALLER), false);
      this.bound.set(source, s);
    }
    return s;
  }

  /** The owner of a (operation, caller_daemon) pair's statements: its counters and comment, kept (both label sets are bounded). */
  pairOwner(operation: string, callerDaemon: string): PairOwner {
    let byCaller = this.pairs.get(operation);
    if (!byCaller) {
      byCaller = new Map();
      this.pairs.set(operation, byCaller);
    }
    let owner = byCaller.get(callerDaemon);
    if (!owner) {
      owner = new PairOwner(operation, callerDaemon, this.metrics.costOf(operation, callerDaemon));
      byCaller.set(callerDaemon, owner);
    }
    return owner;
  }

  async close(): Promise<void> {
    await this.watchdog?.close();
    await Promise.all([this.pool.end(), this.ownPool?.end()]);
  }
}

/** The watchdog of a tier's statements: its own connection to `url` for the kills. */
export function createWatchdog(url: string, metrics: Metrics): StatementWatchdog {
  return new StatementWatchdog(
    () => mysql.createConnection({ uri: url, connectTimeout: CONNECT_TIMEOUT_MS }),
    { stopped: () => metrics.statementsStopped.inc(), abandoned: () => metrics.statementsAbandoned.inc() },
  );
}
