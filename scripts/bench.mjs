// `npm run bench`: the speed targets (docs/performance.md), each a ratio measured in one run against
// a reference on the same machine (medians of interleaved runs after a warm-up).
//   node scripts/bench.mjs [--runs N] [--json FILE] [--keep] [--no-large] [--only agent-hooks|view|privacy]
import { spawnSync, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir, cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFixture, handoffYaml, BENCH_ENV } from './bench/fixture.mjs';
import { benchAgentHooks } from './bench/agent-hooks.mjs';
import { benchView } from './bench/view.mjs';
import { benchPrivacy } from './bench/privacy.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const RUNS = Number(opt('--runs', 9));
const WARMUP = 2;
const jsonOut = opt('--json', null);

const work = mkdtempSync(join(tmpdir(), 'handoff-bench-'));
const bin = join(work, 'bin');
mkdirSync(bin);
symlinkSync(join(root, 'dist/cli.cjs'), join(bin, 'git-handoff'));
symlinkSync(join(root, 'dist/git-handoff-hook'), join(bin, 'git-handoff-hook'));
const env = { ...process.env, ...BENCH_ENV, PATH: `${bin}:${process.env.PATH}` };
for (const k of Object.keys(env)) if (k.startsWith('HANDOFF_') || k === 'GIT_DIR' || k === 'GIT_WORK_TREE') delete env[k];

const log = (s) => process.stderr.write(`${s}\n`);

function run(cmd, argv, { cwd = work, input, extraEnv } = {}) {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, {
    cwd,
    env: extraEnv ? { ...env, ...extraEnv } : env,
    input,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'],
  });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} failed in ${cwd}: ${r.stderr}`);
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Runs each thunk WARMUP + RUNS times, interleaved, and returns the median of each. */
function interleave(thunks) {
  const times = thunks.map(() => []);
  for (let i = 0; i < WARMUP + RUNS; i++) {
    thunks.forEach((f, j) => {
      const ms = f(i);
      if (i >= WARMUP) times[j].push(ms);
    });
  }
  return times.map(median);
}

function peakKb(cmd, argv, cwd) {
  if (!existsSync('/usr/bin/time')) return null;
  const r = spawnSync('/usr/bin/time', ['-f', '%M', cmd, ...argv], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  return Number(r.stderr.trim().split('\n').pop());
}

const hasCommand = (name, cwd) => spawnSync('git', ['handoff', name, '-h'], { cwd, env, stdio: 'ignore' }).status === 0;
const node0 = () => run(process.execPath, ['-e', '0']);
const rows = [];
function row(what, fixture, ours, ref, refName, target, unit = 'ms') {
  const ratio = ours / ref;
  // A row without a target (null) is reported for its figure alone.
  rows.push({
    what,
    fixture,
    ours: +ours.toFixed(2),
    reference: +ref.toFixed(2),
    referenceName: refName,
    ratio: +ratio.toFixed(2),
    target,
    pass: target === null ? null : ratio <= target,
    unit,
  });
  log(`  ${what}: ${ours.toFixed(1)} vs ${ref.toFixed(1)} ${unit} -> ${ratio.toFixed(2)} (${target === null ? 'no target' : `target <= ${target}`})`);
}
function skipped(what, fixture, why, target) {
  rows.push({ what, fixture, skipped: why, target });
  log(`  ${what}: skipped (${why})`);
}

const started = Date.now();
// The agent hooks of every turn (no fixture needed): first, and alone with --only agent-hooks.
benchAgentHooks({ work, env, run, interleave, row, node0 });
if (opt('--only', null) === 'agent-hooks') {
  report();
  process.exit(0);
}
log(`fixtures in ${work}`);
const big = join(work, 'big');
buildFixture(big, { commits: 20000, versions: 5000 });
const one = join(work, 'one');
buildFixture(one, { commits: 20000, versions: 1 });
log(`fixtures built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
// Private and team handoffs (issue 26): alone with --only privacy, else at the end.
const privacyRows = () => benchPrivacy({ root, work, run, interleave, few, row, log, big });
if (opt('--only', null) === 'privacy') {
  privacyRows();
  report();
  process.exit(0);
}

// The scale rows: every row on both fixtures (20k commits / 5k versions and 200k / 50k), each
// with its target: the per-command ratios against `node -e 0` measured in the same
// interleaved runs, the growth from the small fixture to the large one, and the budgets.
const fixtures = [{ name: '20k commits, 5k versions', short: '5k', dir: big, versions: 5000 }];
if (!args.includes('--no-large')) {
  const t0 = Date.now();
  const large = join(work, 'large');
  const phases = buildFixture(large, { commits: 200000, versions: 50000 });
  log(
    `  large fixture: ${Object.entries(phases)
      .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
      .join(', ')}`,
  );
  row('building the large fixture (git fast-import)', '200k commits, 50k versions', (Date.now() - t0) / 1000, 60, 'the 60 s budget', 1, 's');
  fixtures.push({ name: '200k commits, 50k versions', short: '50k', dir: large, versions: 50000 });
}
// The view's rows (first screen, server memory, the --html file): alone with --only view.
const viewRows = () => benchView({ fixtures, env, work, row, skipped, median, log });
if (opt('--only', null) === 'view') {
  await viewRows();
  report();
  process.exit(0);
}
const SMALL_RUNS = Math.max(3, Math.min(RUNS, 5));
/** Median of `n` runs (after one warm-up) of slow commands, where interleaving 2 x RUNS would take minutes. */
function few(thunks, n = SMALL_RUNS) {
  thunks.forEach((f) => f(-1));
  const times = thunks.map(() => []);
  for (let i = 0; i < n; i++) thunks.forEach((f, j) => times[j].push(f(i)));
  return times.map(median);
}
const flat = {};
const growthOf = (key, ms) => ((flat[key] ??= []).push(ms), ms);
for (const f of fixtures) {
  log(`${f.name}:`);
  // Reading commands, interleaved with node -e 0.
  {
    const [show, showJson, diff, logN, n] = interleave([
      () => run('git', ['handoff', 'show'], { cwd: f.dir }),
      () => run('git', ['handoff', 'show', '--json'], { cwd: f.dir }),
      () => run('git', ['handoff', 'diff'], { cwd: f.dir }),
      () => run('git', ['handoff', 'log', '-n', '20'], { cwd: f.dir }),
      node0,
    ]);
    row('git handoff show', f.name, growthOf('git handoff show', show), n, 'node -e 0', 1.15);
    row('git handoff show --json', f.name, growthOf('git handoff show --json', showJson), n, 'node -e 0', 1.15);
    growthOf('git handoff diff', diff);
    growthOf('git handoff log -n 20', logN);
  }
  // write: each run a new summary, so each appends a version.
  {
    const w = `${f.dir}-write`;
    cpSync(f.dir, w, { recursive: true });
    const [o, n] = interleave([(i) => run('git', ['handoff', 'write', '--summary', `bench run ${i}`], { cwd: w }), node0]);
    row('git handoff write', f.name, growthOf('git handoff write', o), n, 'node -e 0', 1.3);
    f.write = w; // kept for the growth rows below
  }
  // show on a branch with no version yet: its first run builds the branch index.
  {
    const nb = `${f.dir}-new-branch`;
    cpSync(f.dir, nb, { recursive: true });
    execFileSync('git', ['checkout', '-q', '-b', 'bench-new-branch'], { cwd: nb, env });
    run('git', ['handoff', 'show'], { cwd: nb });
    const kb = peakKb('git-handoff', ['show'], nb);
    if (kb) row('peak memory of show on a branch with no version', f.name, kb, 200 * 1024, 'the 200 MiB budget', 1, 'KB');
    const [o, n] = interleave([() => run('git', ['handoff', 'show'], { cwd: nb }), node0]);
    row('git handoff show on a branch with no version', f.name, growthOf('git handoff show on a branch with no version', o), n, 'node -e 0', 1.15);
    f.newBranch = nb; // kept for the growth rows below
  }
  // log --json of every version: one timed run (on 50,000 versions it is long), then its memory.
  {
    const ms = run('git', ['handoff', 'log', '--json'], { cwd: f.dir });
    f.logMs = ms;
    row('git handoff log --json (all versions)', f.name, ms, 3000, 'the 3 s budget', 1);
    const kb = peakKb('git-handoff', ['log', '--json'], f.dir);
    if (kb) row('peak memory of log --json (all versions)', f.name, kb, 200 * 1024, 'the 200 MiB budget', 1, 'KB');
  }
  // doctor against the git commands it has to run: which notes' commits exist (one
  // cat-file --batch-check) and which of those no live ref reaches (one rev-list).
  {
    const targets = join(work, `targets-${f.short}.txt`);
    const ls = execFileSync('git', ['ls-tree', '-r', '--name-only', 'refs/notes/handoff'], { cwd: f.dir, env, encoding: 'utf8', maxBuffer: 1 << 28 });
    writeFileSync(
      targets,
      ls
        .split('\n')
        .filter(Boolean)
        .map((p) => p.replace(/\//g, ''))
        .join('\n') + '\n',
    );
    const input = readFileSync(targets);
    const [o, g] = few([
      () => run('git', ['handoff', 'doctor'], { cwd: f.dir }),
      () =>
        run('git', ['cat-file', '--batch-check'], { cwd: f.dir, input }) +
        run('git', ['rev-list', '--stdin', '--not', '--branches', '--tags', '--remotes', 'HEAD'], { cwd: f.dir, input }),
    ]);
    // (the target is set at 50,000 versions: on 5,000, Node's own start-up is most of it)
    row('git handoff doctor', f.name, o, g, 'its git commands alone', f.versions >= 50000 ? 2 : null);
    const kb = peakKb('git-handoff', ['doctor'], f.dir);
    if (kb) row('peak memory of doctor', f.name, kb, 200 * 1024, 'the 200 MiB budget', 1, 'KB');
  }
  // sync: one version each way (another clone wrote one, this one wrote one), and to an empty remote.
  {
    const remote = join(work, `sync-${f.short}.git`);
    execFileSync('git', ['init', '-q', '--bare', '--initial-branch=main', remote], { env });
    execFileSync('git', ['push', '-q', remote, 'main', 'refs/notes/handoff:refs/notes/handoff'], { cwd: f.dir, env });
    const a = `${f.dir}-sync-a`;
    cpSync(f.dir, a, { recursive: true });
    execFileSync('git', ['remote', 'add', 'origin', remote], { cwd: a, env });
    // (the default budget of a sync, 60 s, is for a network; 50,000 versions to a fresh remote on a busy machine can take longer)
    execFileSync('git', ['config', 'handoff.sync.timeout', '900'], { cwd: a, env });
    execFileSync('git', ['fetch', '-q', 'origin'], { cwd: a, env });
    const b = `${f.dir}-sync-b`;
    execFileSync('git', ['clone', '-q', remote, b], { env });
    execFileSync('git', ['fetch', '-q', 'origin', 'refs/notes/handoff:refs/notes/handoff'], { cwd: b, env });
    const [o] = few([
      (i) => {
        run('git', ['handoff', 'write', '--summary', `from the other clone ${i}`], { cwd: b });
        run('git', ['handoff', 'sync', 'origin'], { cwd: b });
        run('git', ['handoff', 'write', '--summary', `from this clone ${i}`], { cwd: a });
        return run('git', ['handoff', 'sync', 'origin'], { cwd: a });
      },
    ]);
    growthOf('git handoff sync, one version each way', o);
    let k = 0;
    const empty = () => {
      const r = join(work, `empty-${f.short}-${k++}`);
      execFileSync('git', ['init', '-q', '--bare', r], { env });
      return r;
    };
    const toEmpty = () => {
      const r = empty();
      spawnSync('git', ['remote', 'remove', 'bench'], { cwd: a, env, stdio: 'ignore' });
      execFileSync('git', ['remote', 'add', 'bench', r], { cwd: a, env });
      return run('git', ['handoff', 'sync', 'bench'], { cwd: a });
    };
    const push = () => run('git', ['push', '-q', empty(), 'refs/notes/handoff:refs/notes/handoff'], { cwd: a });
    // The first such push from a clone scans every note; what it found clean is recorded
    // (.git/handoff/scanned-notes), so the next ones (the row with the target) read only
    // what the record lacks. Measured once, with the record removed, and reported.
    rmSync(join(a, '.git/handoff/scanned-notes'), { force: true });
    const coldPush = push();
    const cold = toEmpty();
    row('git handoff sync to an empty remote, the first from this clone (one run)', f.name, cold, coldPush, 'git push of the same ref', null);
    const [s, p] = few([toEmpty, push], 3);
    row('git handoff sync to an empty remote', f.name, s, p, 'git push of the same ref', 2);
    for (const d of [a, b, remote]) rmSync(d, { recursive: true, force: true });
    for (let j = 0; j < k; j++) rmSync(join(work, `empty-${f.short}-${j}`), { recursive: true, force: true });
  }
  // git commit with the hooks installed, against the same commit without them.
  {
    const withHooks = `${f.dir}-hooks`;
    const without = `${f.dir}-nohooks`;
    cpSync(f.dir, withHooks, { recursive: true });
    cpSync(f.dir, without, { recursive: true });
    run('git', ['handoff', 'init'], { cwd: withHooks });
    const subjects = {
      excluded: (i) => [`docs: bench ${i}`],
      ordinary: (i) => [`fix: bench ${i}`],
      substantive: (i) => [`feat: bench ${i}`, '-m', 'x'.repeat(250)],
    };
    const target = { excluded: 0.15, ordinary: 1.1, substantive: 1.1 };
    for (const kind of Object.keys(subjects)) {
      const commit = (dir, i) => run('git', ['commit', '-q', '--allow-empty', '-m', ...subjects[kind](i)], { cwd: dir });
      const [w, wo, n] = interleave([(i) => commit(withHooks, i), (i) => commit(without, i), node0]);
      row(`hook overhead per git commit, ${kind}${kind === 'excluded' ? ' subject (docs:)' : ''}`, f.name, Math.max(0, w - wo), n, 'node -e 0', target[kind]);
    }
    rmSync(withHooks, { recursive: true, force: true });
    rmSync(without, { recursive: true, force: true });
  }
}
await viewRows();
if (fixtures.length > 1) {
  const [s, l] = fixtures;
  // Flat: each command on both fixtures in the same interleaved runs (medians measured
  // minutes apart would compare the machine's load, not the fixtures).
  const pairs = {
    'git handoff show': (f) => run('git', ['handoff', 'show'], { cwd: f.dir }),
    'git handoff show --json': (f) => run('git', ['handoff', 'show', '--json'], { cwd: f.dir }),
    'git handoff diff': (f) => run('git', ['handoff', 'diff'], { cwd: f.dir }),
    'git handoff log -n 20': (f) => run('git', ['handoff', 'log', '-n', '20'], { cwd: f.dir }),
    'git handoff write': (f, i) => run('git', ['handoff', 'write', '--summary', `growth run ${i}`], { cwd: f.write }),
    'git handoff show on a branch with no version': (f) => run('git', ['handoff', 'show'], { cwd: f.newBranch }),
  };
  for (const [what, cmd] of Object.entries(pairs)) {
    const [a, b] = interleave([(i) => cmd(s, i), (i) => cmd(l, i)]);
    row(`${what}: ${l.short} vs ${s.short} (flat)`, 'both', b, a, `the ${s.short} fixture`, 1.1);
  }
  for (const [what, [a, b]] of Object.entries(flat))
    if (!(what in pairs)) row(`${what}: ${l.short} vs ${s.short}`, 'both', b, a, `the ${s.short} fixture`, null);
  row('log --json growth per version, 50k vs 5k (1 = linear)', 'both', l.logMs / (l.versions / s.versions), s.logMs, 'the 5k run', 1.2);
}
for (const f of fixtures) for (const d of [f.write, f.newBranch]) if (d) rmSync(d, { recursive: true, force: true });
{
  const [a, b] = interleave([() => run('git', ['handoff', 'show'], { cwd: big }), () => run('git', ['handoff', 'show'], { cwd: one })]);
  row('git handoff show, 5k versions vs 1', '20k commits', a, b, 'show with 1 version', 1.1);
}

// peak memory
{
  const kb = (cmd, argv, cwd) => median(Array.from({ length: 7 }, () => peakKb(cmd, argv, cwd)));
  const base = kb(process.execPath, ['-e', '0'], work);
  if (base) {
    const w = join(work, 'mem');
    cpSync(big, w, { recursive: true });
    let i = 0;
    row('peak memory of show', '5k versions', kb('git-handoff', ['show'], big), base, 'node -e 0', 1.5, 'KB');
    const writes = Array.from({ length: 7 }, () => peakKb('git-handoff', ['write', '--summary', `mem ${i++}`], w));
    row('peak memory of write', '5k versions', median(writes), base, 'node -e 0', 1.5, 'KB');
  } else skipped('peak memory', '5k versions', '/usr/bin/time not found', 1.5);
}

// bytes per version, after gc, against native `git notes add`
{
  const N = 100;
  const ours = join(work, 'bytes-ours');
  const native = join(work, 'bytes-native');
  cpSync(big, ours, { recursive: true });
  cpSync(big, native, { recursive: true });
  const size = (dir) => {
    execFileSync('git', ['gc', '-q', '--prune=now'], { cwd: dir, env });
    const out = execFileSync('git', ['count-objects', '-v'], { cwd: dir, env, encoding: 'utf8' });
    const kb = (k) => Number(new RegExp(`^${k}: (\\d+)`, 'm').exec(out)[1]);
    return (kb('size') + kb('size-pack')) * 1024;
  };
  const b0 = size(ours);
  const n0 = size(native);
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: native, env, encoding: 'utf8' }).trim();
  const note = join(work, 'note.yaml');
  for (let i = 0; i < N; i++) {
    run('git', ['handoff', 'write', '--summary', `bytes run ${i}: the parser work continues`], { cwd: ours });
    writeFileSync(note, handoffYaml(10000 + i, head, head, [`${head.slice(0, 7)}: bytes run ${i}`]).replace('summary: ', `summary: bytes run ${i}: `));
    run('git', ['notes', '--ref=handoff', 'add', '-f', '-F', note, 'HEAD'], { cwd: native });
  }
  const per = (size(ours) - b0) / N;
  const perNative = (size(native) - n0) / N;
  row('bytes added per version (after git gc)', '5k versions', per, perNative, 'native git notes add', 1.5, 'bytes');
}

// sweep
{
  const dir = join(work, 'sweep');
  if (!hasCommand('sweep', big)) {
    skipped('git handoff sweep', '2k streaming files', 'no sweep command yet', 1.5);
  } else {
    execFileSync('git', ['init', '-q', dir], { env });
    mkdirSync(join(dir, 'cadence/streaming'), { recursive: true });
    for (let i = 0; i < 2000; i++) {
      writeFileSync(
        join(dir, 'cadence/streaming', `topic-${i}.md`),
        `---\ntopic: topic ${i}\nstatus: ${i % 3 ? 'active' : 'closed'}\nfidelity: ${['Light', 'Standard', 'High'][i % 3]}\n---\n\n## 2026-01-01T10:00:00Z first\nbody\n\n## 2026-01-01T11:00:00Z second\nbody\n`,
      );
    }
    const [o, n] = interleave([() => run('git', ['handoff', 'sweep'], { cwd: dir }), node0]);
    row('git handoff sweep', '2k streaming files', o, n, 'node -e 0', 1.5);
  }
}

// The secret scan of a 1 MiB handoff, in a fresh node process (so the keyword
// table is built and the code is cold, as in one `git handoff write`). Budget: 50 ms of CPU
// time (CPU, not wall: on a shared machine the wall clock mostly measures the neighbours).
{
  const scanner = join(work, 'scanner.mjs');
  const { build } = await import('esbuild');
  await build({
    stdin: {
      contents: `export { scanText } from ${JSON.stringify(join(root, 'src/core/secrets.ts'))};\nexport { prose } from ${JSON.stringify(join(root, 'test/helpers/secret-corpus.ts'))};`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: scanner,
    logLevel: 'warning',
  });
  const doc = join(work, 'handoff-1mib.yaml');
  // Ordinary handoff prose (that names tokens, keys, passwords and placeholders) up to 1 MiB.
  const probe = `import { prose } from ${JSON.stringify(scanner)};\nconst lines = prose();\nlet out = 'status: active\\nsummary: a long session\\nsoft_context:\\n  notes:\\n';\nfor (let i = 0; out.length < 1 << 20; i++) out += '    - ' + JSON.stringify(lines[i % lines.length]) + '\\n';\nprocess.stdout.write(out);`;
  writeFileSync(doc, execFileSync(process.execPath, ['--input-type=module', '-e', probe], { maxBuffer: 1 << 22 }));
  const timer = `import { scanText } from ${JSON.stringify(scanner)};\nimport { readFileSync } from 'node:fs';\nconst text = readFileSync(${JSON.stringify(doc)}, 'utf8');\nconst t = process.cpuUsage();\nconst hits = scanText(text);\nconst u = process.cpuUsage(t);\nconst ms = (u.user + u.system) / 1000;\nif (hits.length) throw new Error('the prose fixture raised ' + hits.length + ' hit(s)');\nprocess.stdout.write(String(ms));`;
  const times = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const ms = Number(execFileSync(process.execPath, ['--input-type=module', '-e', timer], { encoding: 'utf8' }));
    if (i >= WARMUP) times.push(ms);
  }
  row('secret scan of a 1 MiB handoff (CPU time, fresh process)', '1 MiB of handoff prose', median(times), 50, 'the 50 ms budget', 1);
}

privacyRows();
report();

function report() {
  const machine = {
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    memGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    git: execFileSync('git', ['--version'], { encoding: 'utf8' }).trim(),
  };
  const total = (Date.now() - started) / 1000;
  const lines = [
    `git-handoff benchmark: medians of ${RUNS} interleaved runs after ${WARMUP} warm-up; ${machine.cpus} x ${machine.cpu}, ${machine.memGiB} GiB, node ${machine.node}, ${machine.git}; ${total.toFixed(0)} s`,
    '',
    '| what | fixture | ours | reference | ratio | target |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) =>
      r.skipped
        ? `| ${r.what} | ${r.fixture} | skipped: ${r.skipped} | | | <= ${r.target} |`
        : `| ${r.what} | ${r.fixture} | ${r.ours} ${r.unit} | ${r.reference} ${r.unit} (${r.referenceName}) | ${r.ratio} | ${r.target === null ? 'none (reported)' : `<= ${r.target} ${r.pass ? 'ok' : 'MISSED'}`} |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify({ machine, runs: RUNS, warmup: WARMUP, seconds: total, rows }, null, 2)}\n`);
  if (!args.includes('--keep')) rmSync(work, { recursive: true, force: true });
}
