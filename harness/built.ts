// The servers of a benchmark as they ship: compiled by tsc and run by plain Node, not
// transformed as they load. The tier is the build `npm start` runs (`tsc -b
// tsconfig.build.json`, then `node dist/server/main.js`: ReplicaOptions.built); a
// benchmark's own server (bench:rpc's bare server, bench:edge's floor), which is no part of
// the build, is compiled by the same compiler into dist/bench/, beside the build's server
// modules it imports. Under tsx (a bench's `--from source`) every TypeScript module is
// compiled by esbuild with `keepNames`, which renames each named closure as it is made: on
// the tier's call path, closures made per call pay it on every call, and a bare grpc-js
// server has few of them, so tsx would weigh on one side only.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { ROOT } from './children.js';

/** Where a server's code comes from: the build (dist/, plain Node) or the sources (tsx). */
export type From = 'built' | 'source';

/** Parses a `--from`-like option: `built` or `source`, `dflt` when absent. */
export function fromOption(name: string, raw: string | undefined, dflt: From): From {
  if (raw === undefined) return dflt;
  if (raw !== 'built' && raw !== 'source') throw new Error(`--${name}: "${raw}" is not built or source`);
  return raw;
}

/** `tsc -b tsconfig.build.json` in `dir` (a checkout of this repository): the packages and the tier into their dist/. */
export function buildCheckout(dir: string): void {
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.build.json'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
}

/**
 * Compiles benchmark modules (paths from the repository's root, bench/…) into dist/ at the
 * same paths, after buildCheckout(ROOT) (they import the build's server modules, and the
 * contract by its package name), and answers their paths there. One module at a time, as
 * tsx does too: the type check is `npm run check`'s.
 */
export function compileModules(modules: readonly string[]): string[] {
  return modules.map((module) => {
    const fileName = join(ROOT, module);
    const { outputText } = ts.transpileModule(readFileSync(fileName, 'utf8'), {
      fileName,
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    });
    const out = join(ROOT, 'dist', relative(ROOT, fileName).replace(/\.ts$/, '.js'));
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, outputText);
    return out;
  });
}
