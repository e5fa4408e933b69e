// The container image (ops/container/Containerfile, built by ops/container/build.sh) is
// the one the Kubernetes manifests (ops/kubernetes/*.yaml) expect: the user they run as,
// the ports they name, the commands they run (each a bin of a packed package), probe
// paths the programs serve, no MariaDB server, and the tag they pull. Each check is a
// function of the files' text, run on the real files and on a broken copy that it must
// reject: a check that cannot fail checks nothing.
import { describe, expect, it } from 'vitest';
import { parseContainerfile, finalStage, argsOf, imageUser, aptPackages, npmInstall, linkedBins, programs, inFiles, buildTag, realInputs, facts } from '../helpers/container-inputs.js';
import type { Packed, Inputs } from '../helpers/container-inputs.js';

function checkUser(inp: Inputs): string[] {
  const user = imageUser(parseContainerfile(inp.containerfile));
  const m = user ? /^(\d+)(?::(\d+))?$/.exec(user) : null;
  if (!m) return [`USER of the final stage is ${user ?? 'not set'}: runAsNonRoot needs a numeric uid`];
  const [, uid = '', gid] = m;
  const problems = uid === '0' ? ['USER is root'] : [];
  for (const f of facts(inp)) {
    if (f.runAsUsers.length === 0) problems.push(`${f.path} sets no runAsUser`);
    for (const u of f.runAsUsers) if (u !== uid) problems.push(`${f.path} runs as ${u}, the image's USER is ${uid}`);
    for (const g of f.runAsGroups) if (gid !== undefined && g !== gid) problems.push(`${f.path} runs as group ${g}, the image's is ${gid}`);
  }
  return problems;
}

function checkPorts(inp: Inputs): string[] {
  const exposed = new Set(
    argsOf(finalStage(parseContainerfile(inp.containerfile)), 'EXPOSE')
      .flatMap((a) => a.split(/\s+/))
      .map((p) => Number(p.replace(/\/tcp$/, ''))),
  );
  return facts(inp).flatMap((f) => [
    ...(f.ports.length === 0 ? [`${f.path} names no containerPort`] : []),
    ...f.ports.filter((p) => !exposed.has(p)).map((p) => `${f.path}: containerPort ${p} is not EXPOSEd`),
  ]);
}

/** The image's commands: linked from the installed tarballs' bins, each named in a packed package.json. */
function checkCommands(inp: Inputs): string[] {
  const stages = parseContainerfile(inp.containerfile);
  const problems: string[] = [];
  const install = npmInstall(stages);
  if (typeof install === 'string') return [install];
  if (!install.copiedTo || !install.tarballs.startsWith(install.copiedTo.replace(/\/?$/, '/'))) {
    problems.push(`npm install takes ${install.tarballs}, not the tarballs COPY *.tgz put in ${install.copiedTo ?? '(nowhere)'}`);
  }
  const final = finalStage(stages);
  const carried =
    install.stage === final.name ||
    argsOf(final, 'COPY').some((a) => a.split(/\s+/).join(' ') === `--from=${install.stage ?? ''} ${install.dir} ${install.dir}`);
  if (!carried) problems.push(`the final stage does not COPY --from=${install.stage ?? '?'} ${install.dir} ${install.dir}`);
  const linked = linkedBins(stages);
  if (!linked) return [...problems, 'the final stage links no bins onto PATH (for bin in ...; do ln -s "DIR/$bin" "/usr/local/bin/$bin")'];
  if (linked.from !== `${install.dir}/node_modules/.bin`) problems.push(`bins linked from ${linked.from}, not ${install.dir}/node_modules/.bin`);
  if (linked.to !== '/usr/local/bin') problems.push(`bins linked into ${linked.to}, not /usr/local/bin (on PATH)`);

  // Every @sfdb/* or sf-database dependency of a packed package is packed too: the
  // install finds it beside it, not on the registry.
  const packedNames = new Set(inp.packages.map((p) => p.name));
  for (const p of inp.packages) {
    for (const dep of Object.keys(p.dependencies)) {
      if ((dep.startsWith('@sfdb/') || dep === 'sf-database') && !packedNames.has(dep)) problems.push(`${p.name} needs ${dep}, which build.sh does not pack`);
    }
  }
  const tarballCheck = /find "\$CONTEXT" -maxdepth 1 -name '\*\.tgz' \| wc -l\)" -eq (\d+)/.exec(inp.buildScript);
  if (!tarballCheck || Number(tarballCheck[1]) !== inp.packages.length) problems.push(`build.sh packs ${inp.packages.length} packages but checks for ${tarballCheck?.[1] ?? 'no'} tarballs`);

  /** The command name -> the packed package whose bin it is. */
  const bins = new Map<string, Packed>();
  for (const p of inp.packages) {
    for (const [name, file] of Object.entries(p.bins)) {
      if (!inFiles(file, p.files)) problems.push(`${p.name}: bin ${name} (${file}) is not in its package's files`);
      bins.set(name, p);
    }
  }
  for (const name of linked.names) if (!bins.has(name)) problems.push(`the image links ${name}, which no packed package's bin names`);
  const cmd = argsOf(final, 'CMD').at(-1);
  const cmdArgv = cmd ? (JSON.parse(cmd) as string[]) : [];
  const wanted = [
    ...facts(inp).flatMap((f) => f.argv.flatMap((a) => programs(a).map((prog) => ({ prog, where: f.path })))),
    ...(cmdArgv[0] ? [{ prog: cmdArgv[0], where: 'the Containerfile CMD' }] : []),
  ];
  if (!wanted.some((w) => w.prog.startsWith('/'))) problems.push('no manifest runs a shell: the parse of the daemon command failed');
  for (const { prog, where } of wanted) {
    if (prog === '/bin/sh') {
      // dash is Essential in Debian: every Debian image has /bin/sh.
      if (!/(^|\/)debian:/.test(final.from)) problems.push(`${where} runs /bin/sh and the image is not from a Debian base (${final.from})`);
    } else if (!linked.names.includes(prog)) {
      problems.push(`${where} runs ${prog}, which the image does not put on PATH`);
    } else if (!bins.has(prog)) {
      problems.push(`${where} runs ${prog}, which no packed package.json bin names`);
    }
  }
  return problems;
}

function checkProbes(inp: Inputs): string[] {
  return facts(inp).flatMap((f) => [
    ...(f.probePaths.length === 0 ? [`${f.path} has no httpGet probe`] : []),
    ...f.probePaths.filter((p) => !f.server.includes(`'${p}'`)).map((p) => `${f.path} probes ${p}, which its program does not serve`),
  ]);
}

const SERVER_PACKAGES = /^(mariadb-server.*|mysql-server.*|default-mysql-server.*|galera.*)$/;
function checkNoMariaDbServer(inp: Inputs): string[] {
  const pkgs = aptPackages(parseContainerfile(inp.containerfile));
  if (pkgs.length === 0) return ['no apt-get install found: the parse failed'];
  return pkgs.filter((p) => SERVER_PACKAGES.test(p)).map((p) => `the image installs ${p}: the tier uses an external MariaDB`);
}

function checkTag(inp: Inputs): string[] {
  const tag = buildTag(inp.buildScript, inp.version);
  if (!tag) return ['build.sh: no IMAGE="${SFDB_IMAGE:-...}" tag, or VERSION not read from package.json'];
  return facts(inp).flatMap((f) => [
    ...(f.images.length === 0 ? [`${f.path} names no image`] : []),
    ...f.images.filter((img) => img !== tag).map((img) => `${f.path} runs ${img}, build.sh tags ${tag}`),
  ]);
}

// --- Breaking the inputs, to show each check can fail.

const edit = (inp: Inputs, change: Partial<Inputs>): Inputs => ({ ...inp, ...change });
const editManifest = (inp: Inputs, index: number, from: RegExp, to: string): Inputs => ({
  ...inp,
  manifests: inp.manifests.map((m, i) => (i === index ? { ...m, text: replaceOrThrow(m.text, from, to) } : m)),
});
function replaceOrThrow(text: string, from: RegExp, to: string): string {
  if (!from.test(text)) throw new Error(`the breaking edit ${String(from)} matches nothing: update the test`);
  return text.replace(from, to);
}
const cf = (inp: Inputs, from: RegExp, to: string): Inputs => edit(inp, { containerfile: replaceOrThrow(inp.containerfile, from, to) });

describe('the container image and the Kubernetes manifests agree', () => {
  const inp = realInputs();

  it('reads what it checks from the manifests', () => {
    const [db, daemon] = facts(inp);
    expect(db?.argv).toEqual([['sf-database', 'serve']]);
    expect(daemon?.argv[0]?.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(programs(daemon?.argv[0] ?? [])).toEqual(['/bin/sh', 'sf-daemon']);
    expect(db?.ports).toEqual([13005, 13006]);
    expect(daemon?.ports).toEqual([13007]);
    expect(daemon?.probePaths.sort()).toEqual(['/healthz', '/readyz']);
    expect(inp.packages.map((p) => p.name).sort()).toEqual(['@sfdb/client', '@sfdb/daemon', '@sfdb/proto', 'sf-database']);
  });

  it("the image's USER is the manifests' numeric runAsUser", () => {
    expect(checkUser(inp)).toEqual([]);
    expect(checkUser(cf(inp, /^USER .*$/m, 'USER sfdb'))).not.toEqual([]);
    expect(checkUser(editManifest(inp, 1, /runAsUser: 10001/, 'runAsUser: 10002'))).not.toEqual([]);
  });

  it('every containerPort of the manifests is EXPOSEd', () => {
    expect(checkPorts(inp)).toEqual([]);
    expect(checkPorts(cf(inp, /^EXPOSE .*$/m, 'EXPOSE 13005 13006'))).toEqual(['ops/kubernetes/sf-daemon.yaml: containerPort 13007 is not EXPOSEd']);
  });

  it('every command the manifests run is in the image, from a packed package bin', () => {
    expect(checkCommands(inp)).toEqual([]);
    // The image leaves sf-daemon out; a manifest runs a command nothing packs.
    expect(checkCommands(cf(inp, /for bin in sf-database sf-ctl sf-daemon;/, 'for bin in sf-database sf-ctl;'))).toContain(
      'ops/kubernetes/sf-daemon.yaml runs sf-daemon, which the image does not put on PATH',
    );
    expect(checkCommands(editManifest(inp, 0, /command: \["sf-database", "serve"\]/, 'command: ["sf-tier", "serve"]'))).toContain(
      'ops/kubernetes/sf-database.yaml runs sf-tier, which the image does not put on PATH',
    );
    // The daemon package is not packed: its bin is not one of the tarballs'.
    const noDaemon = edit(inp, { packages: inp.packages.filter((p) => p.name !== '@sfdb/daemon') });
    expect(checkCommands(noDaemon)).toContain('the image links sf-daemon, which no packed package\'s bin names');
    // A bin whose file the package does not ship.
    const unshipped = edit(inp, { packages: inp.packages.map((p) => (p.name === '@sfdb/daemon' ? { ...p, files: ['README.md'] } : p)) });
    expect(checkCommands(unshipped)).toContain("@sfdb/daemon: bin sf-daemon (dist/main.js) is not in its package's files");
    // A packed package that needs one build.sh does not pack.
    const noProto = edit(inp, { packages: inp.packages.filter((p) => p.name !== '@sfdb/proto') });
    expect(checkCommands(noProto)).toContain('sf-database needs @sfdb/proto, which build.sh does not pack');
    // The installed tree is not carried into the final stage, or installed with dev dependencies.
    expect(checkCommands(cf(inp, /^COPY --from=install .*$/m, ''))).not.toEqual([]);
    expect(checkCommands(cf(inp, /--omit=dev /, ''))).toEqual(['npm install without --omit=dev']);
    // A base without /bin/sh for the daemon's shell.
    expect(checkCommands(cf(inp, /^FROM docker\.io\/library\/debian:trixie-slim$/m, 'FROM gcr.io/distroless/nodejs20'))).not.toEqual([]);
  });

  it('the probe paths are ones the programs serve', () => {
    expect(checkProbes(inp)).toEqual([]);
    expect(checkProbes(editManifest(inp, 1, /path: \/readyz/, 'path: /ready'))).toEqual(['ops/kubernetes/sf-daemon.yaml probes /ready, which its program does not serve']);
  });

  it('the image installs no MariaDB server', () => {
    expect(checkNoMariaDbServer(inp)).toEqual([]);
    expect(checkNoMariaDbServer(cf(inp, /install -y --no-install-recommends nodejs ca-certificates/, 'install -y --no-install-recommends nodejs mariadb-server ca-certificates'))).toEqual([
      'the image installs mariadb-server: the tier uses an external MariaDB',
    ]);
  });

  it('build.sh tags the image the manifests run', () => {
    expect(buildTag(inp.buildScript, inp.version)).toBe(`registry.example.internal/sf-database:${inp.version}`);
    expect(checkTag(inp)).toEqual([]);
    expect(checkTag(edit(inp, { version: '0.2.0' }))).not.toEqual([]);
    expect(checkTag(editManifest(inp, 0, /sf-database:0\.1\.0/, 'sf-database:latest'))).not.toEqual([]);
  });
});
