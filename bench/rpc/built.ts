// What `bench:rpc` runs by default: the servers as they ship, compiled by tsc and run by
// plain Node, not transformed as they load. The tier is the build `npm start` runs
// (`tsc -b tsconfig.build.json`, then `node dist/server/main.js`); the bare server,
// which is no part of the build, is compiled by the same compiler into dist/bench/rpc/,
// beside the build's server modules it imports. Under tsx (`--from source`) every
// TypeScript module is compiled by esbuild with `keepNames`, which renames each named
// closure as it is made: on the tier's call path, closures made per call pay it on every
// call, and the bare server has few of them, so tsx would weigh on one side only.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { ROOT } from '../../harness/children.js';

/** Where a server's code comes from: the build (dist/, plain Node) or the sources (tsx). */
export type From = 'built' | 'source';

/** The modules of bench/rpc the bare server runs (bare-server.ts and what it imports of bench/rpc). */
const BARE_MODULES = ['bare-server', 'point-read'] as const;

/** `tsc -b tsconfig.build.json` in `dir` (a checkout of this repository): the packages and the tier into their dist/. */
export function buildCheckout(dir: string): void {
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.build.json'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
}

/**
 * Compiles the bare server into dist/bench/rpc/ (after buildCheckout(ROOT): it imports the
 * build's server modules) and answers its path. One module at a time, as tsx does too:
 * the type check is `npm run check`'s.
 */
export function buildBareServer(): string {
  const out = join(ROOT, 'dist', 'bench', 'rpc');
  mkdirSync(out, { recursive: true });
  for (const name of BARE_MODULES) {
    const fileName = join(ROOT, 'bench', 'rpc', `${name}.ts`);
    const { outputText } = ts.transpileModule(readFileSync(fileName, 'utf8'), {
      fileName,
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    });
    writeFileSync(join(out, `${name}.js`), outputText);
  }
  return join(out, 'bare-server.js');
}
