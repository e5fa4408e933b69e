// A real Prometheus (Debian's package) for tests: its own config, rule files and TSDB in a
// temporary directory, on loopback port 0 (it says in its log which port it bound: the
// harness's port policy, harness/ports.ts); scrapes and evaluates every second. Never the
// machine's own Prometheus service.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBinary } from '../../server/embedded/mariadb.js';

export interface ScrapeJob {
  job: string;
  targets: string[];
}

export interface PromResult {
  metric: Record<string, string>;
  value: [number, string];
}

export interface TestPrometheus {
  url: string;
  /** An instant query; throws with Prometheus's error for an invalid expression. */
  query(expr: string): Promise<PromResult[]>;
  /** GET /api/v1/<path> as JSON `data`. */
  api<T>(path: string): Promise<T>;
  stop(): Promise<void>;
}

/** A dashboard panel's expression as Grafana sends it with every variable at All and 1m intervals. */
export function substitute(expr: string): string {
  return expr
    .replaceAll('$__rate_interval', '1m')
    .replaceAll('$__interval', '1m')
    .replaceAll('$__range', '1m')
    .replace(/\$\{?(replica|caller_daemon|instance|operation)\}?/g, '.*')
    .replace(/\$\{?datasource\}?/g, '');
}

/** Its log line once it listens, with the address it bound (logfmt: `msg="Listening on" address=127.0.0.1:41537`). */
const LISTENING = /msg="Listening on" address=(127\.0\.0\.1:\d+)/;

export const PROMETHEUS_MISSING = 'prometheus not found: install it with `apt-get install -y prometheus` (.ci/run does)';

export function prometheusBinary(): string | undefined {
  return findBinary('prometheus');
}

/** `features`: its `--enable-feature` flags (e.g. exemplar-storage). */
export async function startPrometheus(opts: { jobs: ScrapeJob[]; ruleFiles?: string[]; features?: string[] }): Promise<TestPrometheus> {
  const bin = prometheusBinary();
  if (!bin) throw new Error(PROMETHEUS_MISSING);
  const dir = mkdtempSync(join(tmpdir(), 'sfdb-prom-'));
  const config = [
    'global:',
    '  scrape_interval: 1s',
    '  scrape_timeout: 900ms',
    '  evaluation_interval: 1s',
    ...(opts.ruleFiles?.length ? ['rule_files:', ...opts.ruleFiles.map((f) => `  - ${JSON.stringify(f)}`)] : []),
    'scrape_configs:',
    ...opts.jobs.flatMap((j) => [`  - job_name: ${JSON.stringify(j.job)}`, '    static_configs:', `      - targets: ${JSON.stringify(j.targets)}`]),
    '',
  ].join('\n');
  const configFile = join(dir, 'prometheus.yml');
  writeFileSync(configFile, config);
  const check = spawnSync(findBinary('promtool') ?? 'promtool', ['check', 'config', configFile], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`promtool check config: ${check.stdout}${check.stderr}`);

  const proc: ChildProcess = spawn(
    bin,
    // Logged at info: the line that says which port it bound.
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      '--web.listen-address=127.0.0.1:0',
      '--log.level=info',
      ...(opts.features?.length ? [`--enable-feature=${opts.features.join(',')}`] : []),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  proc.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  let url = '';

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`prometheus exited ${proc.exitCode}: ${stderr}`);
    const bound = LISTENING.exec(stderr)?.[1];
    if (bound !== undefined) url = `http://${bound}`;
    try {
      if (url !== '' && (await fetch(`${url}/-/ready`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`prometheus not ready within 30 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }

  const api = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${url}/api/v1/${path}`);
    const body = (await res.json()) as { status: string; data?: T; error?: string; errorType?: string };
    if (body.status !== 'success') throw new Error(`${body.errorType ?? 'error'}: ${body.error ?? res.statusText}`);
    return body.data as T;
  };
  return {
    url,
    api,
    query: async (expr) => (await api<{ result: PromResult[] }>(`query?query=${encodeURIComponent(expr)}`)).result,
    stop: async () => {
      proc.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
