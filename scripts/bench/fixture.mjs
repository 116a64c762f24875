// Benchmark fixtures built with `git fast-import` (seconds, not thousands of CLI calls):
// a history of N commits on main and V handoff versions on refs/notes/handoff, each
// version a commit with our trailers and a note in a fan-out tree, as real use leaves it.
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

export const BENCH_ENV = {
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
  NO_COLOR: '1',
};

function data(text) {
  return `data ${Buffer.byteLength(text)}\n${text}\n`;
}

export function handoffYaml(i, target, tree, recent) {
  return [
    'schema: 1',
    `session_id: bench-${Math.floor(i / 3)}`,
    'status: active',
    `summary: Version ${i} of the benchmark handoff; the parser work continues with quoting and escapes.`,
    'cursor:',
    `  last_discussed: how to escape quotes in field ${i}`,
    '  pending_questions:',
    '    - Do we follow RFC 4180 exactly?',
    `  next_step: write the failing test for case ${i}`,
    'soft_context:',
    '  tone: terse',
    '  notes:',
    '    - the user prefers small commits',
    'open_tracks:',
    '  - name: quoting',
    '    readiness: design agreed',
    '    entry_point: src/parser.ts',
    'ask_user: []',
    'guards:',
    '  - do not change the public parse() signature',
    'memory_updates: []',
    'continuation_refs: []',
    'consolidation:',
    '  triggered: false',
    '  produced: []',
    `date: "${new Date((1767225600 + i * 60) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')}"`,
    'branch: main',
    `head: ${target}`,
    `head_tree: ${tree}`,
    'head_patch_id: null',
    'recent_commits:',
    ...recent.map((r) => `  - "${r}"`),
    'content_hashes: {}',
    '',
  ].join('\n');
}

/**
 * Builds `dir` with `commits` commits on main and `versions` handoff versions targeting the
 * last `versions` commits (the newest version targets HEAD~`behind`). `seal` (all the notes'
 * texts in, their armoured age files out) makes every version a private one.
 */
export function buildFixture(dir, { commits, versions, behind = 2, phases = {}, seal = null }) {
  let t = Date.now();
  const phase = (name) => {
    phases[name] = (phases[name] ?? 0) + (Date.now() - t) / 1000;
    t = Date.now();
  };
  mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q', '--initial-branch=main', dir], { env: { ...process.env, ...BENCH_ENV } });
  const parts = [];
  const base = 1767225600;
  for (let i = 1; i <= commits; i++) {
    parts.push(
      `commit refs/heads/main\nmark :${i}\ncommitter Bench <bench@example.com> ${base + i} +0000\n`,
      data(`feat: change ${i}\n\nA small change to file ${i % 97}.\n`),
      i > 1 ? `from :${i - 1}\n` : '',
      `M 100644 inline src/file${i % 97}.txt\n`,
      data(`content ${i}\n`),
      '\n',
    );
  }
  let input = parts.join('');
  phase('history text');
  const run = (stream) => {
    const r = spawnSync('git', ['fast-import', '--quiet', '--export-marks=marks'], {
      cwd: dir,
      input: stream,
      env: { ...process.env, ...BENCH_ENV },
      maxBuffer: 1 << 28,
    });
    if (r.status !== 0) throw new Error(`fast-import failed: ${r.stderr}`);
  };
  run(input);
  phase('fast-import of the history');
  if (!versions) return phases;
  // Resolve the marks to ids and trees for realistic note content.
  const marks = new Map(
    execFileSync('cat', ['marks'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 })
      .trim()
      .split('\n')
      .map((l) => l.split(' '))
      .map(([m, id]) => [Number(m.slice(1)), id]),
  );
  phase('marks');
  const notes = [];
  const firstTarget = commits - behind - versions + 1;
  const targets = Array.from({ length: versions }, (_, j) => marks.get(firstTarget + j));
  const yamls = targets.map((target, j) => {
    const ci = firstTarget + j;
    const recent = [0, 1, 2].map((k) => `${marks.get(ci - k)?.slice(0, 7)}: feat: change ${ci - k}`);
    return handoffYaml(j, target, 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391', recent);
  });
  const texts = seal ? seal(yamls) : yamls;
  if (seal) phase('encryption');
  for (let j = 0; j < versions; j++) {
    const target = targets[j];
    const message = seal
      ? `handoff ${target.slice(0, 7)} on main: (encrypted)\n\nHandoff-Kind: version\nHandoff-Target: ${target}\nHandoff-Branch: main\nHandoff-Visibility: private\n`
      : `handoff ${target.slice(0, 7)} on main: version ${j}\n\nHandoff-Kind: version\nHandoff-Target: ${target}\nHandoff-Branch: main\n`;
    notes.push(
      `commit refs/notes/handoff\ncommitter Bench <bench@example.com> ${base + commits + j * 10} +0000\n`,
      data(message),
      `N inline ${target}\n`,
      data(texts[j]),
      '\n',
    );
  }
  const noteText = notes.join('');
  phase('notes text');
  const r = spawnSync('git', ['fast-import', '--quiet'], { cwd: dir, input: noteText, env: { ...process.env, ...BENCH_ENV }, maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`fast-import (notes) failed: ${r.stderr}`);
  phase('fast-import of the notes');
  execFileSync('git', ['checkout', '-q', '-f', 'main'], { cwd: dir, env: { ...process.env, ...BENCH_ENV } });
  phase('checkout');
  return phases;
}
