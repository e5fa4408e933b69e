// A private MariaDB Galera cluster on loopback, for tests and benchmarks (never shipped): N mariadbd nodes
// from the system's binaries and galera-4's provider, each with its own data directory,
// ports (SQL, group communication, IST, SST) and logs under one directory. The first node
// bootstraps; the others join empty and receive their state by rsync (SST); a node killed
// and started again rejoins by IST. Nodes run as the `mysql` user when we are root (the
// way the packages run them). Never the machine's own MariaDB.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import mysql from 'mysql2/promise';
import { findBinary } from '../server/embedded/mariadb.js';
import type { ServerPart } from '../server/testing/database.js';
import { reapDeadRuns } from './leftovers.js';
import { latePort } from './ports.js';

const GALERA_PROVIDER_PATHS = ['/usr/lib/galera/libgalera_smm.so', '/usr/lib/libgalera_smm.so', '/usr/lib64/galera-4/libgalera_smm.so'];

/** Why a Galera cluster cannot run here, or undefined when it can. */
export function galeraUnavailable(): string | undefined {
  if (!findBinary('mariadbd') || !findBinary('mariadb-install-db')) return 'mariadbd not found (apt-get install -y mariadb-server)';
  if (!GALERA_PROVIDER_PATHS.some((p) => existsSync(p))) return 'the Galera provider libgalera_smm.so is missing (apt-get install -y galera-4)';
  if (!findBinary('rsync')) return 'rsync (the state transfer) is missing (apt-get install -y rsync)';
  return undefined;
}

/**
 * Loopback is fast and tests wait for it: a killed node is declared gone after about 3 s
 * instead of Galera's WAN-minded defaults (5 s to suspect, 15 s to evict).
 */
const FAST_FAILURE_DETECTION = 'evs.keepalive_period=PT0.5S;evs.suspect_timeout=PT2S;evs.inactive_timeout=PT3S;evs.inactive_check_period=PT0.5S';

interface NodeSpec {
  readonly index: number;
  readonly dataDir: string;
  readonly runDir: string;
  // Ports change only when a launch fails to bind one (launch).
  sqlPort: number;
  gcommPort: number;
  istPort: number;
  sstPort: number;
}

/** How many times a node's launch is tried, each with fresh ports, before start fails. */
const LAUNCH_ATTEMPTS = 3;

export interface GaleraOptions {
  /** Everything lives under it (created; must be empty or absent). */
  dir: string;
  nodes?: number;
  /** Created on the cluster once it is up. */
  database: string;
  log?: (message: string) => void;
  /** Where each node's ports come from (default: a free port below the ephemeral range). */
  pickPort?: () => Promise<number>;
}

export class EmbeddedGalera {
  private readonly children = new Map<number, ChildProcess>();

  private constructor(
    private readonly specs: NodeSpec[],
    private readonly provider: string,
    private readonly owner: { uid: number; gid: number } | undefined,
    readonly database: string,
    private readonly log: (message: string) => void,
    private readonly pickPort: () => Promise<number>,
  ) {}

  static async start(options: GaleraOptions): Promise<EmbeddedGalera> {
    const reason = galeraUnavailable();
    if (reason) throw new Error(`cannot start a Galera cluster: ${reason}`);
    const provider = GALERA_PROVIDER_PATHS.find((p) => existsSync(p)) as string;
    const root = resolve(options.dir);
    const asRoot = process.getuid?.() === 0;
    const owner = asRoot ? mysqlUser() : undefined;
    mkdirSync(root, { recursive: true });
    if (owner) {
      chownSync(root, owner.uid, owner.gid);
      // The nodes run as mysql: every directory above theirs must let mysql through.
      const probe = spawnSync('test', ['-x', root], { ...owner });
      if (probe.status !== 0) throw new Error(`the mysql user cannot reach ${root}: put the Galera directory where it can (e.g. a fresh mkdtemp under ${tmpdir()})`);
    }
    const pickPort = options.pickPort ?? latePort;
    const specs: NodeSpec[] = [];
    for (let index = 0; index < (options.nodes ?? 3); index++) {
      const spec = {
        index,
        dataDir: join(root, `node${index}`),
        runDir: join(root, `node${index}.run`),
        sqlPort: await pickPort(),
        gcommPort: await pickPort(),
        istPort: await pickPort(),
        sstPort: await pickPort(),
      };
      for (const d of [spec.dataDir, spec.runDir]) {
        mkdirSync(d, { recursive: true });
        if (owner) chownSync(d, owner.uid, owner.gid);
      }
      // Who started it: a later run reaps nodes whose owner died (leftovers.ts).
      writeFileSync(join(spec.runDir, 'owner.pid'), `${process.pid}\n`);
      specs.push(spec);
    }
    const cluster = new EmbeddedGalera(specs, provider, owner, options.database, options.log ?? (() => {}), pickPort);
    try {
      cluster.initialise(specs[0] as NodeSpec);
      await cluster.launch(0, { bootstrap: true, first: true });
      // Joiners one at a time: each takes a full state transfer from a synced donor.
      for (let i = 1; i < specs.length; i++) await cluster.launch(i, { bootstrap: false, first: true });
      const conn = await cluster.connect(0);
      try {
        await conn.query(`CREATE DATABASE IF NOT EXISTS \`${options.database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
      } finally {
        await conn.end();
      }
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  get size(): number {
    return this.specs.length;
  }

  port(index: number): number {
    return this.spec(index).sqlPort;
  }

  urlFor(index: number, database = this.database): string {
    return `mysql://root@127.0.0.1:${this.port(index)}/${database}`;
  }

  pid(index: number): number | undefined {
    return this.children.get(index)?.pid;
  }

  async connect(index: number): Promise<mysql.Connection> {
    return mysql.createConnection({ host: '127.0.0.1', port: this.port(index), user: 'root', connectTimeout: 2000 });
  }

  /** SIGKILL: the node leaves the cluster uncleanly (its data directory stays for IST). */
  async kill(index: number): Promise<void> {
    const child = this.children.get(index);
    if (child && running(child)) {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGKILL');
      await exited;
    }
    this.children.delete(index);
  }

  /** Starts a stopped or killed node again: it rejoins and catches up (IST when it can). */
  async rejoin(index: number): Promise<void> {
    await this.launch(index, { bootstrap: false, first: false });
  }

  /** wsrep_cluster_size as node `index` sees it. */
  async clusterSize(index: number): Promise<number> {
    return Number((await this.wsrepStatus(index, 'wsrep_cluster_size')) ?? 0);
  }

  /** wsrep_cluster_status as node `index` sees it: 'Primary', 'non-Primary' or 'Disconnected'. */
  async clusterStatus(index: number): Promise<string> {
    return (await this.wsrepStatus(index, 'wsrep_cluster_status')) ?? '';
  }

  private async wsrepStatus(index: number, name: string): Promise<string | undefined> {
    const conn = await this.connect(index);
    try {
      const [rows] = await conn.query('SHOW STATUS LIKE ?', [name]);
      return (rows as { Value: string }[])[0]?.Value;
    } finally {
      await conn.end();
    }
  }

  async stop(): Promise<void> {
    // Joiners first, the bootstrap node last (a clean shutdown of the whole cluster).
    for (const index of [...this.children.keys()].sort((a, b) => b - a)) {
      const child = this.children.get(index) as ChildProcess;
      // A node that died by a signal has a signalCode and no exitCode: waiting for its
      // 'exit' would wait forever (the CI failure of ec5a110, a start that failed).
      if (running(child)) {
        const exited = new Promise<void>((r) => child.once('exit', () => r()));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
        await exited;
        clearTimeout(timer);
      }
      this.children.delete(index);
    }
  }

  private spec(index: number): NodeSpec {
    const s = this.specs[index];
    if (!s) throw new Error(`no Galera node ${index}`);
    return s;
  }

  private initialise(spec: NodeSpec): void {
    const installDb = findBinary('mariadb-install-db') as string;
    const init = spawnSync(
      installDb,
      ['--no-defaults', `--datadir=${spec.dataDir}`, '--auth-root-authentication-method=normal', '--skip-test-db', `--tmpdir=${spec.runDir}`],
      { encoding: 'utf8', ...(this.owner ?? {}) },
    );
    if (init.status !== 0) throw new Error(`mariadb-install-db failed: ${init.stderr || init.stdout}`);
  }

  private args(spec: NodeSpec, bootstrap: boolean): string[] {
    const members = this.specs.map((s) => `127.0.0.1:${s.gcommPort}`).join(',');
    return [
      '--no-defaults',
      `--datadir=${spec.dataDir}`,
      `--socket=${join(spec.runDir, 'mariadbd.sock')}`,
      `--pid-file=${join(spec.runDir, 'mariadbd.pid')}`,
      `--log-error=${join(spec.runDir, 'mariadbd.err')}`,
      '--bind-address=127.0.0.1',
      `--port=${spec.sqlPort}`,
      '--skip-log-bin',
      '--skip-name-resolve',
      `--tmpdir=${spec.runDir}`,
      '--max-connections=1000',
      '--innodb-buffer-pool-size=128M',
      // What Galera requires of every node.
      '--binlog-format=ROW',
      '--default-storage-engine=InnoDB',
      '--innodb-autoinc-lock-mode=2',
      '--wsrep-on=ON',
      `--wsrep-provider=${this.provider}`,
      '--wsrep-cluster-name=sfdb-test',
      `--wsrep-node-address=127.0.0.1:${spec.gcommPort}`,
      `--wsrep-cluster-address=gcomm://${bootstrap ? '' : members}`,
      '--wsrep-sst-method=rsync',
      `--wsrep-sst-receive-address=127.0.0.1:${spec.sstPort}`,
      `--wsrep-provider-options=gmcast.listen_addr=tcp://127.0.0.1:${spec.gcommPort};ist.recv_addr=127.0.0.1:${spec.istPort};gcache.size=64M;${FAST_FAILURE_DETECTION}`,
    ];
  }

  /**
   * Starts node `index` and waits until it is synced. A node that exits during its start is
   * started again with fresh ports, up to LAUNCH_ATTEMPTS times: each port is picked free
   * but bound only later (a joiner's IST and SST ports seconds later, when its state
   * transfer begins), and meanwhile another process may take it; a joiner whose rsync
   * cannot bind its SST port aborts. On the first launch a joiner's data directory is
   * emptied for the retry (it held no more than a partial transfer); a rejoining node keeps
   * its data and its SQL port (the one clients know).
   */
  private async launch(index: number, opts: { bootstrap: boolean; first: boolean }): Promise<void> {
    const spec = this.spec(index);
    for (let attempt = 1; ; attempt++) {
      const exit = await this.launchOnce(spec, opts.bootstrap);
      if (exit === undefined) return;
      const why = `Galera node ${index} exited during start (${exit}); see ${join(spec.runDir, 'mariadbd.err')}`;
      if (attempt >= LAUNCH_ATTEMPTS) throw new Error(`${why}; ${attempt} attempts`);
      this.log(`${why}; starting it again with fresh ports`);
      spec.istPort = await this.pickPort();
      spec.sstPort = await this.pickPort();
      spec.gcommPort = await this.pickPort();
      if (opts.first) {
        spec.sqlPort = await this.pickPort();
        if (!opts.bootstrap) this.emptyDataDir(spec);
      }
    }
  }

  /** One launch: undefined once the node is synced, or how it exited. */
  private async launchOnce(spec: NodeSpec, bootstrap: boolean): Promise<string | undefined> {
    const { index } = spec;
    const mariadbd = findBinary('mariadbd') as string;
    const out = openSync(join(spec.runDir, 'mariadbd.out'), 'a');
    const child = spawn(mariadbd, this.args(spec, bootstrap), { detached: true, stdio: ['ignore', out, out], ...(this.owner ?? {}) });
    closeSync(out);
    this.children.set(index, child);
    let exit: string | undefined;
    child.once('exit', (code, signal) => (exit = signal ?? `code ${code}`));
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (exit !== undefined) {
        this.children.delete(index);
        return exit;
      }
      if (await this.synced(index)) break;
      if (Date.now() > deadline) throw new Error(`Galera node ${index} not synced within 120 s; see ${join(spec.runDir, 'mariadbd.err')}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    this.log(`Galera node ${index} synced on 127.0.0.1:${spec.sqlPort} (pid ${child.pid})`);
    return undefined;
  }

  private emptyDataDir(spec: NodeSpec): void {
    rmSync(spec.dataDir, { recursive: true, force: true });
    mkdirSync(spec.dataDir, { recursive: true });
    if (this.owner) chownSync(spec.dataDir, this.owner.uid, this.owner.gid);
  }

  private async synced(index: number): Promise<boolean> {
    try {
      const conn = await this.connect(index);
      try {
        const [rows] = await conn.query("SHOW STATUS WHERE Variable_name IN ('wsrep_ready', 'wsrep_local_state_comment')");
        const status = Object.fromEntries((rows as { Variable_name: string; Value: string }[]).map((r) => [r.Variable_name, r.Value]));
        return status['wsrep_ready'] === 'ON' && status['wsrep_local_state_comment'] === 'Synced';
      } finally {
        await conn.end();
      }
    } catch {
      return false;
    }
  }
}

function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function mysqlUser(): { uid: number; gid: number } {
  const id = spawnSync('id', ['-u', 'mysql'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'mysql'], { encoding: 'utf8' });
  if (id.status !== 0 || gid.status !== 0) {
    throw new Error(`running as ${userInfo().username}, but there is no mysql user for the Galera nodes (the mariadb-server package makes one)`);
  }
  return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** The prefix of the clusters' directories in the system's temporary directory. */
const GALERA_PREFIX = 'sfdb-galera-';

/**
 * A cluster in a directory of its own under the system's temporary directory (the nodes
 * run as the mysql user, which cannot enter a run's directory), after reaping what killed
 * runs left there; `stop` stops the nodes and removes the directory.
 */
export async function startGaleraInTemp(options: Omit<GaleraOptions, 'dir'>): Promise<{ galera: EmbeddedGalera; stop(): Promise<void> }> {
  await reapDeadRuns(GALERA_PREFIX, options.log);
  const dir = mkdtempSync(join(tmpdir(), GALERA_PREFIX));
  const galera = await EmbeddedGalera.start({ ...options, dir }).catch((err: unknown) => {
    rmSync(dir, { recursive: true, force: true }); // the cluster stopped its nodes
    throw err;
  });
  return {
    galera,
    stop: async () => {
      await galera.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A private Galera cluster as the servers of a tier (server/testing/cluster.ts), in a
 * directory of its own (startGaleraInTemp): replica `i` writes through node `i % size`;
 * a database is created and dropped through node 0 (DDL replicates to every node).
 */
export class GaleraServers implements ServerPart {
  readonly name = 'galera';
  private running: { galera: EmbeddedGalera; stop(): Promise<void> } | undefined;

  constructor(private readonly options: Omit<GaleraOptions, 'dir'>) {}

  async start(): Promise<void> {
    this.options.log?.(`starting a private ${this.options.nodes ?? 3}-node Galera cluster`);
    this.running = await startGaleraInTemp(this.options);
  }

  async stop(): Promise<void> {
    await this.running?.stop();
  }

  /** The cluster, once started. */
  get galera(): EmbeddedGalera {
    if (!this.running) throw new Error('the Galera cluster is not started');
    return this.running.galera;
  }

  get size(): number {
    return this.galera.size;
  }

  urlFor(index: number, database: string): string {
    return this.galera.urlFor(index, database);
  }

  createDatabase(name: string): Promise<void> {
    return this.ddl(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  }

  dropDatabase(name: string): Promise<void> {
    return this.ddl(`DROP DATABASE IF EXISTS \`${name}\``);
  }

  pids(): (number | undefined)[] {
    const galera = this.running?.galera;
    return galera ? Array.from({ length: galera.size }, (_, i) => galera.pid(i)) : [];
  }

  private async ddl(statement: string): Promise<void> {
    const conn = await this.galera.connect(0);
    try {
      await conn.query(statement);
    } finally {
      await conn.end();
    }
  }
}
