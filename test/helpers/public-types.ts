// Which named types a package's public declarations use that the package does not export
// (test/package/exported-types.test.ts). An author who holds a value of such a type
// (`LeaseKeeper.fence()`'s) cannot name it: TS2305 from outside.
//
// How: the sources' declarations are emitted in memory (what `tsc -b` would write to
// dist/*.d.ts: every inferred type spelt out), then read back as a second program. From
// each package's entry points, every exported function's parameters and return type, a
// class's constructor, heritage and non-private members (protected ones too: a subclass
// uses them), an interface's and a type alias's members, and a variable's type are
// walked for the types they name, transitively. A named type declared in the repository
// must be exported by an entry point of the package or of one of its declared
// dependencies; a type from elsewhere (node_modules, TypeScript's lib) belongs to its own
// package and is not judged. `typeof value` is walked through, not judged: the value's
// type is what the author meets. Types declared in `unjudged` files are not judged (the
// generator's own helpers in proto/gen/, which proto-loader-gen-types writes).
import { join } from 'node:path';
import ts from 'typescript';

export interface PackageSurface {
  /** The package's name, for the report. */
  name: string;
  /** Its entry points' source files (absolute): what its package.json exports name. */
  entries: string[];
  /** Packages (by name, among those checked together) whose exports count as its own. */
  dependsOn?: string[];
}

export interface MissingType {
  package: string;
  /** The type's name and where it is declared (repository-relative). */
  type: string;
  declaredIn: string;
  /** The public name the walk reached it from (`LeaseKeeper.fence`, `createClient`). */
  from: string;
}

const dts = (file: string): string => file.replace(/\.ts$/, '.d.ts');

/** Emits every source's declarations into memory; answers them by .d.ts path, with the emit's errors. */
function emitDeclarations(root: string, rootNames: string[]): { files: Map<string, string>; options: ts.CompilerOptions; errors: string[] } {
  const read = ts.readConfigFile(join(root, 'tsconfig.json'), (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root);
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: false, declaration: true, emitDeclarationOnly: true, sourceMap: false, declarationMap: false, composite: false, incremental: false };
  const program = ts.createProgram({ rootNames, options });
  const files = new Map<string, string>();
  const result = program.emit(undefined, (_name, text, _bom, _err, sources) => {
    const source = sources?.[0];
    if (source) files.set(dts(source.fileName), text);
  });
  const errors = result.diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  return { files, options, errors };
}

/** A program over the in-memory declarations: a repository source resolves to its .d.ts only. */
function declarationProgram(root: string, files: Map<string, string>, options: ts.CompilerOptions, rootNames: string[]): ts.Program {
  const host = ts.createCompilerHost(options);
  const inRepo = (f: string): boolean => f.startsWith(root) && !f.includes('/node_modules/');
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (f) => files.has(f) || (!inRepo(f) && fileExists(f));
  host.readFile = (f) => files.get(f) ?? (inRepo(f) ? undefined : ts.sys.readFile(f));
  host.getSourceFile = (f, lang, onError) => {
    const text = files.get(f);
    return text === undefined ? (inRepo(f) ? undefined : getSourceFile(f, lang, onError)) : ts.createSourceFile(f, text, lang, true);
  };
  return ts.createProgram({ rootNames: rootNames.map(dts), options: { ...options, noEmit: true, declaration: false, emitDeclarationOnly: false }, host });
}

const isPrivate = (node: ts.Node): boolean =>
  (ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.PrivateKeyword)) ||
  ('name' in node && node.name !== undefined && ts.isPrivateIdentifier(node.name as ts.Node));

/** The nodes of a declaration an author meets: its types, not its private parts or bodies. */
function publicParts(decl: ts.Declaration): ts.Node[] {
  if (ts.isClassDeclaration(decl) || ts.isInterfaceDeclaration(decl)) {
    return [...(decl.typeParameters ?? []), ...(decl.heritageClauses ?? []), ...(decl.members as ts.NodeArray<ts.Node>).filter((m) => !isPrivate(m))];
  }
  if (ts.isEnumDeclaration(decl) || ts.isModuleDeclaration(decl)) return [];
  return [decl];
}

/** Walks the packages' public declarations; answers each named repository type a package uses but does not export. */
export function missingExports(root: string, packages: PackageSurface[], unjudged: (file: string) => boolean = () => false): { missing: MissingType[]; emitErrors: string[]; walked: number } {
  const allEntries = packages.flatMap((p) => p.entries);
  const { files, options, errors } = emitDeclarations(root, allEntries);
  const program = declarationProgram(root, files, options, allEntries);
  const checker = program.getTypeChecker();
  const resolve = (s: ts.Symbol): ts.Symbol => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  const repoDecls = (s: ts.Symbol): ts.Declaration[] => (s.declarations ?? []).filter((d) => files.has(d.getSourceFile().fileName));

  const exportsOf = new Map<string, Set<ts.Symbol>>();
  for (const p of packages) {
    const set = new Set<ts.Symbol>();
    for (const entry of p.entries) {
      const sf = program.getSourceFile(dts(entry));
      const moduleSymbol = sf && checker.getSymbolAtLocation(sf);
      if (!moduleSymbol) throw new Error(`${p.name}: no declarations for ${entry}`);
      for (const s of checker.getExportsOfModule(moduleSymbol)) set.add(resolve(s));
    }
    exportsOf.set(p.name, set);
  }

  const missing: MissingType[] = [];
  let walked = 0;
  for (const p of packages) {
    const visible = new Set<ts.Symbol>([p.name, ...(p.dependsOn ?? [])].flatMap((n) => [...(exportsOf.get(n) ?? [])]));
    const seen = new Set<ts.Symbol>();
    const reported = new Set<ts.Symbol>();
    const queue: { symbol: ts.Symbol; from: string }[] = [...(exportsOf.get(p.name) ?? [])].map((symbol) => ({ symbol, from: symbol.name }));
    const referenced = (node: ts.Node, from: string): void => {
      let target: ts.Node | undefined;
      let judged = true;
      if (ts.isTypeReferenceNode(node)) target = node.typeName;
      else if (ts.isExpressionWithTypeArguments(node)) target = node.expression;
      else if (ts.isImportTypeNode(node)) {
        target = node.qualifier;
        judged = !node.isTypeOf;
      } else if (ts.isTypeQueryNode(node)) {
        target = node.exprName;
        judged = false;
      }
      const symbol = target && checker.getSymbolAtLocation(target);
      if (symbol) {
        let s = resolve(symbol);
        const member = s.flags & ts.SymbolFlags.EnumMember ? s.declarations?.[0] : undefined;
        if (member && ts.isEnumMember(member)) s = checker.getSymbolAtLocation(member.parent.name) ?? s;
        const decls = repoDecls(s);
        if (decls.length > 0 && !(s.flags & ts.SymbolFlags.TypeParameter)) {
          const declaredIn = decls[0]!.getSourceFile().fileName.slice(root.length + 1).replace(/\.d\.ts$/, '.ts');
          if (judged && !visible.has(s) && !reported.has(s) && !unjudged(declaredIn)) {
            reported.add(s);
            missing.push({ package: p.name, type: s.name, declaredIn, from });
          }
          queue.push({ symbol: s, from: `${from} → ${s.name}` });
        }
      }
      ts.forEachChild(node, (child) => referenced(child, from));
    };
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      if (seen.has(item.symbol)) continue;
      seen.add(item.symbol);
      walked += 1;
      for (const decl of repoDecls(item.symbol)) {
        for (const part of publicParts(decl)) {
          const name = ts.isClassElement(part) || ts.isTypeElement(part) ? part.name?.getText() : undefined;
          referenced(part, name ? `${item.from}.${name}` : item.from);
        }
      }
    }
  }
  return { missing, emitErrors: errors, walked };
}
