// What test/unit/containerfile.test.ts checks, read from the files: the Containerfile's
// stages and steps, the Kubernetes manifests' containers (a line-based reading of the few
// fields it needs: no YAML dependency), the packed packages' bins and files, and the tag
// build.sh gives the image.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
export const ROOT = join(import.meta.dirname, '..', '..');
export const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

export const CONTAINERFILE = 'ops/container/Containerfile';
export const BUILD_SCRIPT = 'ops/container/build.sh';
/** Each manifest and the source of the program its probes reach. */
export const MANIFESTS = [
  { path: 'ops/kubernetes/sf-database.yaml', server: 'server/http.ts' },
  { path: 'ops/kubernetes/sf-daemon.yaml', server: 'daemons/http.ts' },
];

// --- The Containerfile: instructions (comments dropped, `\` continuations joined) by stage.

export interface Instruction {
  op: string;
  args: string;
}
export interface Stage {
  from: string;
  name: string | undefined;
  steps: Instruction[];
}

export function parseContainerfile(text: string): Stage[] {
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    logical.push(pending + line);
    pending = '';
  }
  if (pending) logical.push(pending.trim());
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, op = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (op.toUpperCase() === 'FROM') {
      const [from = '', , name] = args.split(/\s+/);
      stages.push({ from, name: args.match(/\bAS\s+(\S+)/i) ? name : undefined, steps: [] });
    } else {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`${op} before any FROM`);
      stage.steps.push({ op: op.toUpperCase(), args });
    }
  }
  return stages;
}

export const finalStage = (stages: Stage[]): Stage => {
  const last = stages.at(-1);
  if (!last) throw new Error('no FROM in the Containerfile');
  return last;
};
export const argsOf = (stage: Stage, op: string): string[] => stage.steps.filter((s) => s.op === op).map((s) => s.args);
/** The last USER of the final stage, as the runtime sees it (`uid[:gid]`). */
export const imageUser = (stages: Stage[]): string | undefined => argsOf(finalStage(stages), 'USER').at(-1);

/** The packages every `apt-get install` of every stage names. */
export function aptPackages(stages: Stage[]): string[] {
  return stages.flatMap((stage) =>
    argsOf(stage, 'RUN').flatMap((run) =>
      run
        .split(/&&|;|\|\|/)
        .map((cmd) => /apt-get\s+install\s+(.*)$/.exec(cmd.trim())?.[1] ?? '')
        .flatMap((list) => list.split(/\s+/).filter((word) => word !== '' && !word.startsWith('-'))),
    ),
  );
}

export interface Install {
  /** Where npm installed the tarballs (the WORKDIR of that RUN). */
  dir: string;
  /** The name of the stage it ran in. */
  stage: string | undefined;
  /** The tarball paths it was given. */
  tarballs: string;
  /** Where `COPY *.tgz` put the build context's tarballs. */
  copiedTo: string | undefined;
}

/** The `npm install --omit=dev <tarballs>` of the Containerfile, or why there is none. */
export function npmInstall(stages: Stage[]): Install | string {
  for (const stage of stages) {
    let workdir = '/';
    let copiedTo: string | undefined;
    for (const step of stage.steps) {
      if (step.op === 'WORKDIR') workdir = step.args;
      if (step.op === 'COPY' && /^\*\.tgz\s+/.test(step.args)) copiedTo = step.args.split(/\s+/)[1];
      const npm = step.op === 'RUN' ? /npm install ([^&;]*)/.exec(step.args) : null;
      if (!npm) continue;
      const words = (npm[1] ?? '').trim().split(/\s+/);
      if (!words.includes('--omit=dev')) return 'npm install without --omit=dev';
      const tarballs = words.find((w) => w.endsWith('.tgz'));
      if (!tarballs) return 'npm install names no .tgz';
      return { dir: workdir, stage: stage.name, tarballs, copiedTo };
    }
  }
  return 'no RUN npm install';
}

/** The commands the final stage puts on PATH: `for bin in A B; do ... ln -s "DIR/$bin" "/usr/local/bin/$bin"`. */
export function linkedBins(stages: Stage[]): { names: string[]; from: string; to: string } | undefined {
  for (const run of argsOf(finalStage(stages), 'RUN')) {
    const m = /for (\w+) in ([^;]+); do .*ln -s "([^"$]+)\/\$\1" "([^"$]+)\/\$\1"/.exec(run);
    if (m) return { names: (m[2] ?? '').trim().split(/\s+/), from: m[3] ?? '', to: m[4] ?? '' };
  }
  return undefined;
}

// --- The manifests: a flat list of their keys with each key's path of parent keys.
// Enough YAML for these files: block mappings and sequences, flow sequences of quoted
// strings as values, folded/literal block scalars; no anchors, no multi-line flow.

export interface Entry {
  /** Parent keys, outermost first ('-N' for the Nth sequence item of the file). */
  path: string[];
  key: string;
  value: string;
}

export function flattenYaml(text: string): Entry[][] {
  const docs: Entry[][] = [[]];
  const stack: { indent: number; key: string }[] = [];
  const lines = text.split('\n');
  let items = 0;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    if (raw.trim() === '' || raw.trim().startsWith('#')) continue;
    if (raw.startsWith('---')) {
      docs.push([]);
      stack.length = 0;
      continue;
    }
    let indent = raw.length - raw.trimStart().length;
    let rest = raw.trim();
    const push = (key: string, at: number): void => {
      while (stack.length > 0 && (stack.at(-1)?.indent ?? 0) >= at) stack.pop();
      stack.push({ indent: at, key });
    };
    let dash = indent;
    while (rest.startsWith('- ') || rest === '-') {
      dash = indent;
      push(`-${items++}`, indent);
      const after = rest.slice(1);
      indent += 1 + (after.length - after.trimStart().length);
      rest = after.trim();
    }
    const m = /^([\w.-]+):(?:\s+(.*))?$/.exec(rest);
    const key = m ? (m[1] ?? '') : ''; // '' for a scalar sequence item
    let value = m ? (m[2] ?? '') : rest;
    if (/^[>|][-+]?$/.test(value)) {
      // Its lines are indented past the key's, or past the dash of a scalar item.
      const parent = m ? indent : dash;
      const body: string[] = [];
      while (i + 1 < lines.length) {
        const next = lines[i + 1] ?? '';
        if (next.trim() !== '' && next.length - next.trimStart().length <= parent) break;
        body.push(next.trim());
        i++;
      }
      value = value.startsWith('>') ? body.join(' ').trim() : body.join('\n').trim();
    }
    while (stack.length > 0 && (stack.at(-1)?.indent ?? 0) >= indent) stack.pop();
    docs.at(-1)?.push({ path: stack.map((s) => s.key), key, value: value.replace(/^"(.*)"$/, '$1') });
    if (key) stack.push({ indent, key });
  }
  return docs.filter((d) => d.length > 0);
}

/** The containers of a manifest's pod templates: each `containers:` item's entries, paths relative to it. */
export function containers(text: string): Entry[][] {
  const groups = new Map<string, Entry[]>();
  for (const e of flattenYaml(text).flat()) {
    const at = e.path.indexOf('containers');
    const item = at < 0 ? undefined : e.path[at + 1];
    if (item === undefined) continue;
    groups.set(item, [...(groups.get(item) ?? []), { ...e, path: e.path.slice(at + 2) }]);
  }
  return [...groups.values()];
}

export const isItem = (segment: string | undefined): boolean => segment?.startsWith('-') ?? false;

export interface ManifestFacts {
  images: string[];
  runAsUsers: string[];
  runAsGroups: string[];
  ports: number[];
  /** Each container's command and args. */
  argv: string[][];
  probePaths: string[];
}

export function manifestFacts(text: string): ManifestFacts {
  const all = flattenYaml(text).flat();
  const values = (key: string): string[] => all.filter((e) => e.key === key).map((e) => e.value);
  const argv = containers(text).map((c) => {
    const command = c.find((e) => e.key === 'command' && e.path.length === 0)?.value;
    const args = c.filter((e) => e.path.length === 2 && e.path[0] === 'args' && isItem(e.path[1]) && e.key === '').map((e) => e.value);
    return [...(command ? (JSON.parse(command) as string[]) : []), ...args];
  });
  return {
    images: values('image'),
    runAsUsers: values('runAsUser'),
    runAsGroups: values('runAsGroup'),
    ports: values('containerPort').map(Number),
    argv,
    probePaths: all.filter((e) => e.key === 'path' && e.path.at(-1) === 'httpGet').map((e) => e.value),
  };
}

/** The programs a container's argv runs: argv[0], and for `sh -c SCRIPT` what the script execs too. */
export function programs(argv: string[]): string[] {
  const [first, flag, script] = argv;
  if (!first) return [];
  if (/(^|\/)(ba)?sh$/.test(first) && flag === '-c' && script) {
    return [first, ...[...script.matchAll(/\bexec\s+([\w./-]+)/g)].map((m) => m[1] ?? '')];
  }
  return [first];
}

// --- build.sh and the packages it packs.

export interface Packed {
  dir: string;
  name: string;
  bins: Record<string, string>;
  files: string[];
  dependencies: Record<string, string>;
}

export interface PackageJson {
  name: string;
  version: string;
  bin?: Record<string, string>;
  files?: string[];
  dependencies?: Record<string, string>;
}

/** The package folders build.sh packs: '.' for a bare `npm pack`, and each `-w DIR`. */
export function packedDirs(script: string): string[] {
  const dirs: string[] = [];
  for (const line of script.split('\n')) {
    if (!/(?:^|&&|;|\()\s*npm pack\b/.test(line.trim())) continue; // a command, not a message or comment
    const workspaces = [...line.matchAll(/(?:-w|--workspace)[ =](\S+)/g)].map((m) => m[1] ?? '');
    dirs.push(...(workspaces.length > 0 ? workspaces : ['.']));
  }
  return dirs;
}

export function readPacked(dir: string): Packed {
  const pkg = JSON.parse(read(join(dir, 'package.json'))) as PackageJson;
  return { dir, name: pkg.name, bins: pkg.bin ?? {}, files: pkg.files ?? [], dependencies: pkg.dependencies ?? {} };
}

// npm's `files` globs (a double star and slash: any folders; a star: within one): whether `path` is packed.
export function inFiles(path: string, globs: string[]): boolean {
  const toRegex = (glob: string): RegExp =>
    new RegExp(
      `^${glob
        .split('**/')
        .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
        .join('(?:.*/)?')}$`,
    );
  return globs.some((g) => toRegex(g).test(path.replace(/^\.\//, '')));
}

/** The tag build.sh gives the image, its `$VERSION` being package.json's version. */
export function buildTag(script: string, version: string): string | undefined {
  if (!/^VERSION="\$\(node -p "require\('\$ROOT\/package\.json'\)\.version"\)"$/m.test(script)) return undefined;
  const m = /^IMAGE="\$\{SFDB_IMAGE:-([^}]+)\}"$/m.exec(script);
  return m?.[1]?.replace('$VERSION', version);
}

// --- The checks: each returns what is wrong ([] when nothing is).

export interface Inputs {
  containerfile: string;
  buildScript: string;
  manifests: { path: string; text: string; server: string }[];
  packages: Packed[];
  version: string;
}

export function realInputs(): Inputs {
  const buildScript = read(BUILD_SCRIPT);
  return {
    containerfile: read(CONTAINERFILE),
    buildScript,
    manifests: MANIFESTS.map((m) => ({ ...m, text: read(m.path), server: read(m.server) })),
    packages: packedDirs(buildScript).map(readPacked),
    version: (JSON.parse(read('package.json')) as PackageJson).version,
  };
}

export const facts = (inp: Inputs): (ManifestFacts & { path: string; server: string })[] =>
  inp.manifests.map((m) => ({ ...manifestFacts(m.text), path: m.path, server: m.server }));
