// Lists the exported values of src/ that nothing uses: no other module imports them (src/,
// scripts/; a test's use does not count) and their own file does not use them either. That is
// dead code (a test of it tests nothing the program runs). `npm run lint` runs it and fails on any. Imports are
// read with the TypeScript parser (no type check, so it takes about a second): named imports,
// re-exports, `import * as ns` (every `ns.name` used counts) and `import()` of a module (its
// destructured names, or `.name` on the awaited module). A module's default export and the
// ones it lists in KEPT are not reported.
import ts from 'typescript';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** `file: [names]` kept on purpose, each with its reason. */
const KEPT = {
  // scripts/build.mjs bundles these on their own and calls them (the agent hooks' shell launcher, the post-commit shim's test)
  'src/agents/hook-shell.ts': ['hookShellScript'],
  'src/core/excluded-subject-shell.ts': ['excludedSubjectShell'],
  // the plain reference the secret scanner's fast path is held to (test/unit/secrets-fast-paths.test.ts)
  'src/core/secrets.ts': ['scanTextLineByLine'],
};

function walk(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (/\.(ts|mts|mjs|js)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const sources = walk(join(root, 'src')).filter((f) => f.endsWith('.ts'));
const users = [...sources, ...walk(join(root, 'test')), ...walk(join(root, 'scripts'))];

/** What a specifier in `from` resolves to among the sources (a `.js` import of a `.ts` file), or null. */
function resolveSpec(from, spec) {
  if (!spec.startsWith('.')) return null;
  const abs = resolve(dirname(from), spec);
  for (const c of [abs.replace(/\.js$/, '.ts'), `${abs}.ts`, join(abs, 'index.ts'), abs]) if (sources.includes(c)) return c;
  return null;
}

/** module -> names other modules use ('*' when a namespace import escapes, so every name counts) */
const used = new Map(sources.map((f) => [f, new Set()]));
/** the same, counting only what the tests import: a name only a test uses is dead in the program */
const usedByTests = new Map(sources.map((f) => [f, new Set()]));
let current = null;
const use = (file, name) => (current === 'test' ? usedByTests : used).get(file)?.add(name);

/** Exported names of each source file (declarations and `export { a, b }`). */
const exported = new Map();

const testDir = join(root, 'test');
for (const file of users) {
  current = file.startsWith(testDir) ? 'test' : 'program';
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const namespaces = new Map(); // local name -> module
  const isSource = sources.includes(file);
  const names = new Set();
  /** identifier -> how often it occurs in this file (its declaration included) */
  const mentions = new Map();
  const visit = (node) => {
    if (ts.isIdentifier(node)) mentions.set(node.text, (mentions.get(node.text) ?? 0) + 1);
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const target = resolveSpec(file, node.moduleSpecifier.text);
      if (target) {
        if (ts.isImportDeclaration(node)) {
          const c = node.importClause;
          if (c?.name) use(target, 'default');
          const b = c?.namedBindings;
          if (b && ts.isNamespaceImport(b)) namespaces.set(b.name.text, target);
          if (b && ts.isNamedImports(b)) for (const el of b.elements) use(target, (el.propertyName ?? el.name).text);
        } else if (!node.exportClause) use(target, '*');
        else if (ts.isNamedExports(node.exportClause)) for (const el of node.exportClause.elements) use(target, (el.propertyName ?? el.name).text);
        else use(target, '*');
      }
    }
    // import('./x.js'): `const { a } = await import(...)`, `(await import(...)).a`, `import(...).then(m => m.a)`
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      const target = resolveSpec(file, node.arguments[0].text);
      if (target) {
        let p = node.parent;
        while (p && (ts.isAwaitExpression(p) || ts.isParenthesizedExpression(p))) p = p.parent;
        if (p && ts.isVariableDeclaration(p) && ts.isObjectBindingPattern(p.name))
          for (const el of p.name.elements) use(target, (el.propertyName ?? el.name).getText(sf));
        else if (p && ts.isPropertyAccessExpression(p)) use(target, p.name.text);
        else if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) namespaces.set(p.name.text, target);
        else use(target, '*');
      }
    }
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && namespaces.has(node.expression.text))
      use(namespaces.get(node.expression.text), node.name.text);
    // values only: an exported type is part of the signature of what it describes
    const isType = ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node);
    if (isSource && !isType && ts.canHaveModifiers(node) && ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) && node.parent === sf) {
      if (ts.isVariableStatement(node)) for (const d of node.declarationList.declarations) names.add(d.name.getText(sf));
      else if (node.name) names.add(node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  // a namespace used other than as `ns.name` (passed along, spread) may use any name
  for (const [local, target] of namespaces) {
    const re = new RegExp(`\\b${local}\\b(?!\\s*\\.)`, 'g');
    if ((text.match(re) ?? []).length > 1) use(target, '*');
  }
  // one mention is the declaration itself: the name is used nowhere in its own file either
  if (isSource) exported.set(file, new Set([...names].filter((n) => (mentions.get(n) ?? 0) <= 1)));
}

const dead = [];
for (const [file, names] of exported) {
  const u = used.get(file);
  if (u.has('*')) continue;
  const kept = KEPT[relative(root, file)] ?? [];
  for (const n of names)
    if (!u.has(n) && !kept.includes(n))
      dead.push(`${relative(root, file)}: ${n}${usedByTests.get(file).has(n) || usedByTests.get(file).has('*') ? ' (only a test uses it)' : ''}`);
}
if (dead.length) {
  console.error(
    `exported, and used nowhere in the program (not in src/ nor scripts/, nor in its own file): dead code to remove\n  ${dead.sort().join('\n  ')}`,
  );
  process.exit(1);
}
console.log(`no dead exports (${sources.length} modules of src/)`);
