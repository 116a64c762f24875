// `npm run bench:floor`: what a `git handoff` command costs before it does any work of its
// own, part by part, each measured against `node -e 0` in one interleaved run (medians of wall
// time). It says how far the start-up
// targets of `npm run bench` (show <= 1.15, write <= 1.3, a commit hook <= 1.1 of
// `node -e 0`) can be reached on this machine: a part that every run of the command pays is
// a floor under its ratio.
//   node scripts/bench-floor.mjs [--runs N]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { buildFixture, BENCH_ENV } from './bench/fixture.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf('--runs') + 1] || 0) || 21;
const WARMUP = 2;

const work = mkdtempSync(join(tmpdir(), 'handoff-floor-'));
const bin = join(work, 'bin');
mkdirSync(bin);
symlinkSync(join(root, 'dist/cli.cjs'), join(bin, 'git-handoff'));
const env = { ...process.env, ...BENCH_ENV, PATH: `${bin}:${process.env.PATH}` };
for (const k of Object.keys(env)) if (k.startsWith('HANDOFF_') || k === 'GIT_DIR' || k === 'GIT_WORK_TREE') delete env[k];
const repo = join(work, 'repo');
buildFixture(repo, { commits: 2000, versions: 500 });

// What the in-process reader does with node:zlib on a `show`: ~35 small objects (a tree of
// 256 entries, its delta chain, a note, a few commits).
const objects = join(work, 'objects.bin');
writeFileSync(objects, deflateSync(Buffer.alloc(7424, 'tree entry ')));
const script = (name, text) => {
  const p = join(work, `${name}.cjs`);
  writeFileSync(p, text);
  return p;
};
const zlibScript = script(
  'zlib',
  `const z = require('zlib'); const b = require('fs').readFileSync(${JSON.stringify(objects)}); for (let i = 0; i < 35; i++) z.inflateSync(b);`,
);
const cryptoScript = script('crypto', `require('crypto').createHash('sha1').update('blob 1\\0x').digest('hex');`);
const childScript = script('child', `require('child_process');`);

/** Wall time of one run, in ms. */
function measure(cmd, argv) {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint();
    const c = spawn(cmd, argv, { cwd: repo, env, stdio: 'ignore' });
    c.on('error', reject);
    c.on('exit', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - t) / 1e6) : reject(new Error(`${cmd} ${argv.join(' ')} exited ${code}`))));
  });
}

const parts = [
  ['node -e 0', process.execPath, ['-e', '0']],
  ['node loading zlib and inflating 35 objects', process.execPath, [zlibScript]],
  ['node loading crypto and hashing one object', process.execPath, [cryptoScript]],
  ['node loading child_process', process.execPath, [childScript]],
  ['node dist/cli.cjs --version (launcher, dispatcher)', process.execPath, [join(root, 'dist/cli.cjs'), '--version']],
  ['git-handoff --version (the same through #!/usr/bin/env node)', 'git-handoff', ['--version']],
  ['git handoff --version (the same through git)', 'git', ['handoff', '--version']],
  ['git handoff show', 'git', ['handoff', 'show']],
  ['git handoff show --json', 'git', ['handoff', 'show', '--json']],
];
const wall = parts.map(() => []);
for (let i = 0; i < WARMUP + RUNS; i++) {
  for (const [j, [, cmd, argv]] of parts.entries()) {
    const ms = await measure(cmd, argv);
    if (i >= WARMUP) wall[j].push(ms);
  }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const w = wall.map(median);
const lines = [
  `git-handoff start-up floor: medians of ${RUNS} interleaved runs after ${WARMUP} warm-up (wall time)`,
  '',
  '| what | wall ms | vs node -e 0 | extra wall ms |',
  '|---|---|---|---|',
  ...parts.map(([what], j) => `| ${what} | ${w[j].toFixed(1)} | ${(w[j] / w[0]).toFixed(2)} | ${(w[j] - w[0]).toFixed(1)} |`),
];
process.stdout.write(`${lines.join('\n')}\n`);
rmSync(work, { recursive: true, force: true });
