// Bundles the CLI into dist/ and renders the man page from the same specs as `-h`.
//
// Start-up is the budget that matters (the tool runs on every commit), so measured
// choices: CommonJS (the ESM loader costs ~3.5 ms more here), our own code in one file
// whose modules are evaluated only when used, and the heavy libraries (js-yaml, diff) in
// files of their own, required only on the paths that need them.
import { build } from 'esbuild';
import { rmSync, mkdirSync, mkdtempSync, writeFileSync, chmodSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { dirname, join, relative } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });

/** The floor `engines` declares (`>=X.Y.Z`, the oldest Node CI runs the CLI on: scripts/node-versions.mjs). */
const nodeFloor = /^>=(\d+\.\d+\.\d+)$/.exec(pkg.engines?.node ?? '')?.[1];
if (!nodeFloor) throw new Error(`build: package.json engines.node must be ">=X.Y.Z" (the floor CI runs), not ${JSON.stringify(pkg.engines?.node)}`);
const VENDOR = {
  'js-yaml': 'vendor-js-yaml.cjs',
  diff: 'vendor-diff.cjs',
  'age-encryption': 'vendor-age.cjs',
  '@scure/base': 'vendor-scure-base.cjs',
  'smol-toml': 'vendor-toml.cjs',
};
const common = { bundle: true, format: 'cjs', platform: 'node', target: `node${nodeFloor}`, legalComments: 'none', logLevel: 'warning' };

/** Every source file esbuild put into dist/ (the metafiles' inputs), for the third-party notices. */
const bundled = new Set();
const noteInputs = (result) => Object.keys(result.metafile.inputs).forEach((f) => bundled.add(f));

/**
 * age-encryption imports its post-quantum (ML-KEM hybrid) and P-256 (tag recipient) code
 * eagerly, and loading them computes tables (ML-KEM's NTT roots alone ~9 ms): a third of
 * what `show` of an encrypted handoff adds to a shared one, for recipient kinds an X25519
 * note never uses. They are loaded on their first use instead: each export becomes a stand-in
 * that forwards to the real object (noble's objects are plain records of closures).
 */
const LAZY_IN_AGE = { '@noble/post-quantum/hybrid.js': ['MLKEM768P256', 'MLKEM768X25519'], '@noble/curves/nist.js': ['p256'] };
const lazyAgeParts = {
  name: 'lazy-age-parts',
  setup(b) {
    b.onResolve({ filter: /^@noble\/(post-quantum\/hybrid|curves\/nist)\.js$/ }, (args) =>
      args.namespace === 'lazy-age' || !/age-encryption/.test(args.importer) ? undefined : { path: args.path, namespace: 'lazy-age' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-age' }, (args) => ({
      resolveDir: join(root, 'node_modules', 'age-encryption'),
      contents:
        `let real; const load = () => (real ??= require(${JSON.stringify(args.path)}));\n` +
        `const later = (name) => new Proxy({}, { get: (_, k) => load()[name][k], has: (_, k) => k in load()[name] });\n` +
        LAZY_IN_AGE[args.path].map((n) => `export const ${n} = later(${JSON.stringify(n)});`).join('\n'),
    }));
  },
};

// Vendor libraries: one file each.
for (const [name, file] of Object.entries(VENDOR)) {
  noteInputs(
    await build({
      ...common,
      stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: root },
      outfile: join(dist, file),
      metafile: true,
      plugins: name === 'age-encryption' ? [lazyAgeParts] : [],
    }),
  );
}

// Each command is a bundle of its own: `show` compiles only what `show` runs. The
// dispatcher (cli.cjs) requires the one it needs; shared code is simply repeated.
// A command's dynamic `import()` of a use case in app/ (one git hook event, the agent
// hooks) is a bundle of its own too, so `hook post-commit` does not compile the agent
// machinery. Both lists come from esbuild's own import graph of the registry (its
// metafile), so what is split is exactly what esbuild resolved, comments and strings aside.
const analysis = await build({
  ...common,
  entryPoints: [join(root, 'src/commands/registry.ts')],
  external: Object.keys(VENDOR),
  metafile: true,
  write: false,
  outdir: dist,
});
const { inputs } = analysis.metafile;
// What this build is: a digest of every source file the commands are bundled from, the
// package's version and its lock file. The outgoing secret scan keeps its record of clean
// notes under it (src/state/scanned-notes.ts): any change to the scanner's rules, the note
// reader or anything else in the bundle makes a new build, which scans every note again.
const buildDigest = (() => {
  const h = createHash('sha256').update(`${pkg.version}\0`);
  for (const file of Object.keys(inputs).sort())
    h.update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update('\0');
  return h.update(readFileSync(join(root, 'package-lock.json'))).digest('hex');
})();
/** bundle name -> source file (relative to the root, as the metafile names it) */
const bundles = new Map();
/** `${importer}\0${specifier as written}` -> the bundle that dynamic import becomes */
const split = new Map();
const dynamicImports = (file) => inputs[file].imports.filter((i) => i.kind === 'dynamic-import' && !i.external);
const baseName = (file, folder) => file.slice(folder.length, -'.ts'.length);
for (const cmd of dynamicImports('src/commands/registry.ts')) {
  // a command's name is its file's name, as in the registry's keys
  const name = `cmd-${baseName(cmd.path, 'src/commands/')}`;
  bundles.set(name, cmd.path);
  split.set(`src/commands/registry.ts\0${cmd.original}`, name);
  for (const use of dynamicImports(cmd.path)) {
    if (!use.path.startsWith('src/app/')) continue; // (a core module imported lazily stays in the command's bundle)
    const lazy = `lazy-${baseName(use.path, 'src/app/').replace(/[^a-z0-9]+/gi, '-')}`;
    bundles.set(lazy, use.path);
    split.set(`${cmd.path}\0${use.original}`, lazy);
  }
}
if (![...bundles.keys()].some((n) => n.startsWith('cmd-'))) throw new Error('build: the registry (src/commands/registry.ts) imports no command');
const splitPlugin = {
  name: 'split',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const name = args.kind === 'dynamic-import' && split.get(`${relative(root, args.importer)}\0${args.path}`);
      return name ? { path: `./${name}.cjs`, external: true } : undefined;
    });
    b.onResolve({ filter: new RegExp(`^(${Object.keys(VENDOR).join('|')})$`) }, (args) => ({ path: `./${VENDOR[args.path]}`, external: true }));
  },
};
const entries = { cli: join(root, 'src/bin.ts') };
for (const [name, file] of bundles) entries[name] = join(root, file);
noteInputs(
  await build({
    ...common,
    metafile: true,
    entryPoints: entries,
    outdir: dist,
    outExtension: { '.js': '.cjs' },
    define: { __VERSION__: JSON.stringify(pkg.version), __BUILD_DIGEST__: JSON.stringify(buildDigest) },
    // `import()` becomes a plain lazy `require`, so nothing loads before it is used.
    supported: { 'dynamic-import': false },
    plugins: [splitPlugin],
  }),
);
// The view's page (src/view-client/, docs/view.md): a browser bundle of its own, read from
// dist/ only by `git handoff view` (served as /app.js, inline in a file of `view --html`),
// so no command bundle carries it. Minified: the file of --html holds it whole.
noteInputs(
  await build({
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome109', 'firefox115', 'safari16'],
    entryPoints: [join(root, 'src/view-client/main.ts')],
    outfile: join(dist, 'view-app.js'),
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
  }),
);
writeFileSync(join(dist, 'view-app.css'), readFileSync(join(root, 'src/view-client/app.css'), 'utf8'));
writeThirdPartyNotices();
writeFileSync(join(dist, 'cli.cjs'), `#!/usr/bin/env node\n${readFileSync(join(dist, 'cli.cjs'), 'utf8')}`);
chmodSync(join(dist, 'cli.cjs'), 0o755);

/**
 * dist/THIRD-PARTY-NOTICES.txt: each package whose code esbuild bundled (the metafiles'
 * inputs under node_modules/), with its version, licence and the licence text it ships, so
 * the notices stay true when a dependency is added. A bundled package without a licence
 * text stops the build.
 */
function writeThirdPartyNotices() {
  const packages = new Map();
  for (const file of bundled) {
    const m = /^(.*node_modules\/)((?:@[^/]+\/)?[^/]+)\//.exec(file);
    if (!m) continue;
    const dir = join(root, m[1], m[2]);
    if (packages.has(dir)) continue;
    const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const licence = typeof meta.license === 'string' ? meta.license : (meta.licenses ?? []).map((l) => l.type ?? l).join(' OR ') || 'unknown';
    const texts = readdirSync(dir)
      .filter((f) => /^(licen[cs]e|copying|notice)([.-]|$)/i.test(f))
      .sort();
    if (!texts.length) throw new Error(`build: ${meta.name} is bundled but ships no licence text (${relative(root, dir)})`);
    packages.set(dir, { name: meta.name, version: meta.version, licence, texts: texts.map((f) => readFileSync(join(dir, f), 'utf8').trim()) });
  }
  const rule = '='.repeat(78);
  const list = [...packages.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.version < b.version ? -1 : 1));
  const text = [
    `git-handoff ${pkg.version} bundles code of the packages below into dist/. Each one's licence`,
    'text follows its name. (Written by scripts/build.mjs from what esbuild bundled.)',
    '',
    ...list.map((p) => `  ${p.name} ${p.version} (${p.licence})`),
    ...list.flatMap((p) => ['', rule, `${p.name} ${p.version} (${p.licence})`, rule, '', p.texts.join('\n\n')]),
    '',
  ].join('\n');
  writeFileSync(join(dist, 'THIRD-PARTY-NOTICES.txt'), text);
}

mkdirSync(join(root, 'man'), { recursive: true });
const man = execFileSync(process.execPath, [join(dist, 'cli.cjs'), '--man-page'], { encoding: 'utf8' });
writeFileSync(join(root, 'man/git-handoff.1'), man);

// githooks/post-commit answers a commit with an excluded subject itself, without Node: its
// shell test is generated here from the rule's one definition (src/core/substantive.ts,
// rendered by src/core/excluded-subject-shell.ts) between the shim's markers.
async function writeExcludedSubjectTest() {
  const r = await build({ ...common, format: 'esm', entryPoints: [join(root, 'src/core/excluded-subject-shell.ts')], write: false });
  const { excludedSubjectShell } = await import(`data:text/javascript;base64,${Buffer.from(r.outputFiles[0].contents).toString('base64')}`);
  const file = join(root, 'githooks/post-commit');
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf('# >>> excluded subject');
  const end = text.indexOf('# <<< excluded subject <<<');
  if (start < 0 || end < start) throw new Error('build: githooks/post-commit has no excluded-subject markers');
  const head = text.slice(0, text.indexOf('\n', start) + 1);
  const next = `${head}${excludedSubjectShell()}\n${text.slice(end)}`;
  if (next !== text) writeFileSync(file, next);
}
await writeExcludedSubjectTest();

// dist/git-handoff-hook, the command init registers for the agent hooks (package.json
// `bin`): a POSIX shell script that answers an ordinary prompt and an ordinary stop without
// Node, its prefilter generated from the phrase classifier's tables (src/agents/hook-shell.ts).
async function writeHookShell() {
  const r = await build({ ...common, format: 'esm', entryPoints: [join(root, 'src/agents/hook-shell.ts')], write: false });
  const { hookShellScript } = await import(`data:text/javascript;base64,${Buffer.from(r.outputFiles[0].contents).toString('base64')}`);
  writeFileSync(join(dist, 'git-handoff-hook'), hookShellScript());
  chmodSync(join(dist, 'git-handoff-hook'), 0o755);
}
await writeHookShell();

// Start-up: dist/cli.cjs is a small launcher that compiles each bundle of dist/ with a V8
// code cache made here, for this Node, by training runs of the commands that run most (a
// hook on every commit, show at every session start, write): the cache holds the bytecode
// of every function those runs compiled, so a start does not compile them again (measured:
// docs/performance.md). A cache made only by compiling holds the top level alone and saved
// nothing. Another Node version finds no cache for itself and loads the bundles as they are.
async function writeV8Cache() {
  const main = readFileSync(join(dist, 'cli.cjs'), 'utf8').replace(/^#!.*\n/, '');
  writeFileSync(join(dist, 'main.cjs'), main);
  writeFileSync(
    join(dist, 'cli.cjs'),
    `#!/usr/bin/env node
'use strict';
// git-handoff's launcher (written by scripts/build.mjs): each bundle here is compiled with
// the V8 code cache the build made for this Node version, when there is one.
const fs = require('fs');
const path = require('path');
const Module = require('module');
// The oldest Node the built CLI is run on in CI (package.json "engines"): an older one is
// refused here, in one line, before any code that needs a newer API runs.
const floor = ${JSON.stringify(nodeFloor)};
const older = (a, b) => { for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i]; return false; };
if (older(process.versions.node.split('.').map(Number), floor.split('.').map(Number))) {
  const message = 'needs Node.js ' + floor + ' or newer; this is ' + process.version + ' (' + process.execPath + ')';
  process.stderr.write('git handoff: ' + message + '\\n');
  if (process.argv.includes('--json')) process.stdout.write(JSON.stringify({ ok: false, error: { code: 'UnsupportedNode', message } }) + '\\n');
  process.exit(1);
}
const cacheDir = path.join(__dirname, 'v8-cache', process.version + '-' + process.arch);
const training = process.env.HANDOFF_BUILD_V8_CACHE === cacheDir;
if (training || fs.existsSync(cacheDir)) {
  const vm = require('vm');
  const plain = Module._extensions['.js'];
  const made = [];
  Module._extensions['.cjs'] = function (module, filename) {
    if (path.dirname(filename) !== __dirname) return plain(module, filename);
    const name = path.basename(filename) + '.cache';
    let cachedData;
    if (!training) {
      try {
        cachedData = fs.readFileSync(path.join(cacheDir, name));
      } catch {}
    }
    const script = new vm.Script(Module.wrap(fs.readFileSync(filename, 'utf8')), { filename, cachedData });
    if (training) made.push([name, script]);
    script.runInThisContext().call(module.exports, module.exports, Module.createRequire(filename), module, filename, __dirname);
  };
  if (training) process.on('exit', () => made.forEach(([name, script]) => fs.writeFileSync(path.join(cacheDir, name), script.createCachedData())));
}
require('./main.cjs');
`,
  );
  chmodSync(join(dist, 'cli.cjs'), 0o755);
  const cacheDir = join(dist, 'v8-cache', `${process.version}-${process.arch}`);
  mkdirSync(cacheDir, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'handoff-v8-cache-'));
  try {
    const env = {
      PATH: process.env.PATH,
      HOME: work,
      LANG: 'C',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'Build',
      GIT_AUTHOR_EMAIL: 'build@example.com',
      GIT_COMMITTER_NAME: 'Build',
      GIT_COMMITTER_EMAIL: 'build@example.com',
    };
    const run = (cmd, args) => {
      const r = spawnSync(cmd, args, { cwd: work, env: { ...env, HANDOFF_BUILD_V8_CACHE: cacheDir }, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
      if (r.status !== 0 && !(cmd === process.execPath && r.status === 1)) throw new Error(`${[cmd, ...args].join(' ')}: ${r.stderr || r.error}`);
    };
    const cli = (...args) => run(process.execPath, [join(dist, 'cli.cjs'), ...args]);
    run('git', ['init', '-q', '--initial-branch=main']);
    writeFileSync(join(work, 'a.txt'), 'a\n');
    run('git', ['add', 'a.txt']);
    run('git', ['commit', '-q', '-m', 'feat: start']);
    // The last run to load a bundle writes its cache: the commonest path goes last.
    cli('write', '--summary', 'training the code cache');
    cli('log');
    cli('write', '--summary', 'a second version');
    run('git', ['commit', '-q', '--allow-empty', '-m', 'feat: more']);
    // The sweep, over topic files that take each path of its reading (dated and undated
    // entries, another status); they are gone before the runs after it.
    const streaming = join(work, 'cadence', 'streaming');
    mkdirSync(streaming, { recursive: true });
    ['active', 'active', 'closed'].forEach((status, i) =>
      writeFileSync(
        join(streaming, `t${i}.md`),
        `---\ntopic: t${i}\nstatus: ${status}\nfidelity: Standard\n---\n\n## 2026-01-01T10:00:00Z first\nbody\n\n## second\n`,
      ),
    );
    cli('sweep');
    rmSync(join(work, 'cadence'), { recursive: true, force: true });
    // A private version read back (the age bundle's cache: docs/privacy.md), then a shared
    // one on top, so the runs below train show on the common path.
    cli('key', 'new');
    cli('write', '--private', '--summary', 'a private version');
    cli('show');
    cli('write', '--shared', '--summary', 'a shared version again');
    cli('diff');
    cli('doctor');
    cli('hook', 'post-commit');
    cli('show', '--json');
    cli('show');
  } catch (e) {
    // No cache is slower, never wrong.
    rmSync(join(dist, 'v8-cache'), { recursive: true, force: true });
    console.warn(`build: no V8 code cache (${e.message.split('\n')[0]})`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
await writeV8Cache();
