import path from 'node:path';
import ts from 'typescript';

/**
 * Dead exports, dead re-exports and needless exports (issue 27 part 5), by the compiler: every
 * import of the project (named, namespace, dynamic, `import()` types, `export ... from`, and names
 * taken through `export *`) against each file's exports. Prints `kind<TAB>file<TAB>name`:
 * `dead export` (used nowhere), `dead re-export` (passed on, never taken), `needless export`
 * (used in its own file only). Stories and tool configs are entry points. Run:
 * `npx tsx scripts/dead-exports.ts` (prints app code only; `--all` for tests, bench and scripts too).
 */

const root = process.cwd();
const cfg = ts.getParsedCommandLineOfConfigFile(
  path.join(root, 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: () => {},
  },
)!;
const program = ts.createProgram(cfg.fileNames, cfg.options);
const checker = program.getTypeChecker();
const files = program
  .getSourceFiles()
  .filter((f) => !f.fileName.includes('node_modules') && f.fileName.startsWith(root));
const rel = (f: string) => path.relative(root, f);

// imported names per target file
const used = new Map<string, Set<string>>(); // file -> names ('*' = all)
const mark = (file: string, name: string) => {
  if (!used.has(file)) used.set(file, new Set());
  used.get(file)!.add(name);
};
const stars: Array<[string, string]> = [];
const resolve = (spec: string, from: string) =>
  ts.resolveModuleName(spec, from, cfg.options, ts.sys).resolvedModule?.resolvedFileName;

for (const sf of files) {
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const target = resolve(node.moduleSpecifier.text, sf.fileName);
      if (target) {
        if (ts.isImportDeclaration(node)) {
          const c = node.importClause;
          if (!c) mark(target, '*side');
          else {
            if (c.name) mark(target, 'default');
            const nb = c.namedBindings;
            if (nb && ts.isNamespaceImport(nb)) mark(target, '*');
            if (nb && ts.isNamedImports(nb))
              for (const e of nb.elements) mark(target, (e.propertyName ?? e.name).text);
          }
        } else {
          const ec = node.exportClause;
          if (!ec) stars.push([sf.fileName, target]);
          else if (ts.isNamedExports(ec))
            for (const e of ec.elements) mark(target, (e.propertyName ?? e.name).text);
          else mark(target, '*');
        }
      }
    }
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      const target = resolve(node.arguments[0].text, sf.fileName);
      if (target) mark(target, '*');
    }
    if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      const target = resolve(node.argument.literal.text, sf.fileName);
      if (target)
        mark(target, node.qualifier && ts.isIdentifier(node.qualifier) ? node.qualifier.text : '*');
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

for (let changed = true; changed;) {
  changed = false;
  for (const [from, to] of stars) {
    const toMod = checker.getSymbolAtLocation(program.getSourceFile(to)!);
    const toNames = new Set(toMod ? checker.getExportsOfModule(toMod).map((x) => x.getName()) : []);
    for (const n of used.get(from) ?? []) {
      if ((toNames.has(n) || n === '*') && !used.get(to)?.has(n)) {
        mark(to, n);
        changed = true;
      }
    }
  }
}

const entry = (f: string) =>
  /\.stories\.tsx?$/.test(f) ||
  /(^|\/)(vite|vitest|playwright)\.config\.ts$/.test(f) ||
  f.startsWith('.storybook/') ||
  f === 'eslint.config.js';

const out: string[] = [];
for (const sf of files) {
  const r = rel(sf.fileName);
  if (entry(r)) continue;
  const names = used.get(sf.fileName) ?? new Set();
  if (names.has('*')) continue;
  const mod = checker.getSymbolAtLocation(sf);
  if (!mod) continue;
  // count local identifier uses
  const local = new Map<string, number>();
  const count = (n: ts.Node) => {
    if (ts.isIdentifier(n)) local.set(n.text, (local.get(n.text) ?? 0) + 1);
    ts.forEachChild(n, count);
  };
  count(sf);
  for (const ex of checker.getExportsOfModule(mod)) {
    const name = ex.getName();
    if (names.has(name)) continue;
    const decl = ex.declarations?.[0];
    const reexport = decl && decl.getSourceFile() !== sf;
    const kind = reexport
      ? 'dead re-export'
      : (local.get(name) ?? 0) > 1
        ? 'needless export'
        : 'dead export';
    out.push(`${kind}\t${r}\t${name}`);
  }
}
const all = process.argv.includes('--all');
console.log(
  out
    .filter((line) => all || /\t(src|machines|contract|server)\//.test(line))
    .sort()
    .join('\n'),
);
