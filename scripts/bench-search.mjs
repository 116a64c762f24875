// `git handoff search` on the benchmark's 5,000-version fixture and on a 50,000-version one,
// next to `node -e 0`: a cold index (the first search of a clone) and a warm one,
// for a rare query and for a common one (every version matches; -n 20 prints the newest).
//   npm run build && node scripts/bench-search.mjs [--runs N] [--sizes 5000,50000] [--keep]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir, cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFixture, BENCH_ENV } from './bench/fixture.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const RUNS = Number(opt('--runs', 7));
const SIZES = opt('--sizes', '5000,50000').split(',').map(Number);
const work = mkdtempSync(join(tmpdir(), 'handoff-bench-search-'));
const bin = join(work, 'bin');
mkdirSync(bin);
symlinkSync(join(root, 'dist/cli.cjs'), join(bin, 'git-handoff'));
const env = { ...process.env, ...BENCH_ENV, PATH: `${bin}:${process.env.PATH}` };
const log = (s) => process.stderr.write(`${s}\n`);

function run(cmd, argv, cwd = work) {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} failed: ${r.stderr}`);
  return ms;
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const rows = [];
for (const n of SIZES) {
  const dir = join(work, `v${n}`);
  const t0 = Date.now();
  buildFixture(dir, { commits: n + 100, versions: n });
  log(`fixture of ${n} versions built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const rare = ['search', 'case', String(Math.floor(n * 0.86)), '-n', '20'];
  const common = ['search', 'quoting', '-n', '20'];
  const index = join(dir, '.git/handoff');
  const cold = [];
  const node0 = [];
  for (let i = 0; i < Math.max(3, Math.ceil(RUNS / 2)); i++) {
    rmSync(index, { recursive: true, force: true });
    cold.push(run('git-handoff', rare, dir));
    node0.push(run(process.execPath, ['-e', '0']));
  }
  const warmRare = [];
  const warmCommon = [];
  for (let i = 0; i < RUNS + 2; i++) {
    const a = run('git-handoff', rare, dir);
    const b = run('git-handoff', common, dir);
    const c = run(process.execPath, ['-e', '0']);
    if (i >= 2) {
      warmRare.push(a);
      warmCommon.push(b);
      node0.push(c);
    }
  }
  const ref = median(node0);
  for (const [what, xs] of [
    ['cold index (first search)', cold],
    ['warm index, rare query', warmRare],
    ['warm index, every version matches', warmCommon],
  ]) {
    const ms = median(xs);
    rows.push({ versions: n, what, ms: +ms.toFixed(1), node0: +ref.toFixed(1), ratio: +(ms / ref).toFixed(2) });
    log(`  ${n} versions, ${what}: ${ms.toFixed(1)} ms vs node -e 0 ${ref.toFixed(1)} ms`);
  }
  rmSync(dir, { recursive: true, force: true });
}
const machine = `${cpus().length} x ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}`;
process.stdout.write(
  [
    `git handoff search: medians of ${RUNS} warm runs (cold: ${Math.max(3, Math.ceil(RUNS / 2))} runs, index removed before each); ${machine}`,
    '',
    '| versions | what | search | node -e 0 | ratio |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.versions.toLocaleString('en')} | ${r.what} | ${r.ms} ms | ${r.node0} ms | ${r.ratio} |`),
  ].join('\n') + '\n',
);
if (!args.includes('--keep')) rmSync(work, { recursive: true, force: true });
