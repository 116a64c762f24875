// Bundles the CLI into dist/ and renders the man page from the same specs as `-h`.
//
// Start-up is the budget that matters (the tool runs on every commit), so measured
// choices: CommonJS (the ESM loader costs ~3.5 ms more here), our own code in one file
// whose modules are evaluated only when used, and the heavy libraries (js-yaml, diff) in
// files of their own, required only on the paths that need them.
import { build } from 'esbuild';
import { rmSync, mkdirSync, writeFileSync, chmodSync, readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });

const VENDOR = { 'js-yaml': 'vendor-js-yaml.cjs', diff: 'vendor-diff.cjs' };
const common = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', legalComments: 'none', logLevel: 'warning' };

// Vendor libraries: one file each.
for (const [name, file] of Object.entries(VENDOR)) {
  await build({ ...common, stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: root }, outfile: join(dist, file) });
}

// Each command is a bundle of its own: `show` compiles only what `show` runs. The
// dispatcher (cli.cjs) requires the one it needs; shared code is simply repeated.
const registry = readFileSync(join(root, 'src/commands/registry.ts'), 'utf8');
const commands = [...registry.matchAll(/import\('\.\/([a-z0-9-]+)\.js'\)/g)].map((m) => m[1]);
// A command's dynamic `import('../app/...')` (one git hook event, the agent hooks) is a
// bundle of its own too, so `hook post-commit` does not compile the agent machinery.
const lazyName = (spec) => `lazy-${spec.replace(/^\.\.\/app\//, '').replace(/\.js$/, '').replace(/[^a-z0-9]+/gi, '-')}`;
const lazy = new Map();
for (const c of commands) {
  const text = readFileSync(join(root, 'src/commands', `${c}.ts`), 'utf8');
  for (const m of text.matchAll(/import\('(\.\.\/app\/[a-z0-9/-]+\.js)'\)/g)) {
    // (a path named only in a comment has no file)
    if (existsSync(join(root, 'src', m[1].slice(3).replace(/\.js$/, '.ts')))) lazy.set(m[1], lazyName(m[1]));
  }
}
const splitPlugin = {
  name: 'split',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/app\// }, (args) =>
      args.importer.includes(`${join('src', 'commands')}/`) && args.kind === 'dynamic-import' && lazy.has(args.path)
        ? { path: `./${lazy.get(args.path)}.cjs`, external: true }
        : undefined,
    );
    b.onResolve({ filter: new RegExp(`^(${Object.keys(VENDOR).join('|')})$`) }, (args) => ({ path: `./${VENDOR[args.path]}`, external: true }));
    b.onResolve({ filter: /^\.\/[a-z0-9-]+\.js$/ }, (args) =>
      args.importer.endsWith(join('commands', 'registry.ts')) ? { path: `./cmd-${args.path.slice(2, -3)}.cjs`, external: true } : undefined,
    );
  },
};
const entries = { cli: join(root, 'src/bin.ts') };
for (const c of commands) entries[`cmd-${c}`] = join(root, 'src/commands', `${c}.ts`);
for (const [spec, name] of lazy) entries[name] = join(root, 'src', spec.replace(/^\.\.\//, '').replace(/\.js$/, '.ts'));
await build({
  ...common,
  entryPoints: entries,
  outdir: dist,
  outExtension: { '.js': '.cjs' },
  define: { __VERSION__: JSON.stringify(pkg.version) },
  // `import()` becomes a plain lazy `require`, so nothing loads before it is used.
  supported: { 'dynamic-import': false },
  plugins: [splitPlugin],
});
writeFileSync(join(dist, 'cli.cjs'), `#!/usr/bin/env node\n${readFileSync(join(dist, 'cli.cjs'), 'utf8')}`);
chmodSync(join(dist, 'cli.cjs'), 0o755);

mkdirSync(join(root, 'man'), { recursive: true });
const man = execFileSync(process.execPath, [join(dist, 'cli.cjs'), '--man-page'], { encoding: 'utf8' });
writeFileSync(join(root, 'man/git-handoff.1'), man);
