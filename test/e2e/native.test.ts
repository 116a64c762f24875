import { beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { TestRepo, tempDir, BASE_EPOCH } from '../helpers/repo.js';
import { handoff, handoffAsync, cliPath } from '../helpers/cli.js';

/** Targets of every note in the notes tree, by path, as native git stores them. */
function noteTargets(repo: TestRepo, rev = 'refs/notes/handoff'): string[] {
  return repo
    .git('ls-tree', '-r', '--name-only', rev)
    .split('\n')
    .filter(Boolean)
    .map((p) => p.replace(/\//g, ''))
    .filter((p) => /^[0-9a-f]{40}$/.test(p));
}

function expectNoDuplicates(repo: TestRepo): void {
  const targets = noteTargets(repo);
  expect(new Set(targets).size).toBe(targets.length);
  const listed = repo
    .git('notes', '--ref=handoff', 'list')
    .trim()
    .split('\n')
    .map((l) => l.split(' ')[1]);
  expect(new Set(listed).size).toBe(listed.length);
  expect(new Set(listed)).toEqual(new Set(targets));
}

/** `count` empty commits on main in one `git fast-import`. */
function manyCommits(repo: TestRepo, count: number): string[] {
  let stream = '';
  for (let i = 1; i <= count; i++) {
    const msg = `feat: commit ${i}\n`;
    stream += `commit refs/heads/main\ncommitter Ada Tester <ada@example.com> ${BASE_EPOCH + i} +0000\ndata ${Buffer.byteLength(msg)}\n${msg}\n`;
  }
  execFileSync('git', ['fast-import', '--quiet'], { cwd: repo.dir, env: repo.tick(), input: stream });
  return repo.git('rev-list', '--reverse', 'main').trim().split('\n');
}

describe('a notes tree native git fanned out (more than 100 notes)', () => {
  const COUNT = 120;
  let repo: TestRepo;
  let commits: string[];
  beforeAll(() => {
    repo = TestRepo.init();
    commits = manyCommits(repo, COUNT);
    commits.forEach((c, i) => repo.git('notes', '--ref=handoff', 'add', '-m', `summary: native ${i + 1}\nstatus: active`, c));
  });

  it('is fanned out by native git', () => {
    const top = repo.git('ls-tree', 'refs/notes/handoff').trim().split('\n');
    expect(top.every((l) => /^040000 tree [0-9a-f]{40}\t[0-9a-f]{2}$/.test(l))).toBe(true);
    expect(noteTargets(repo)).toHaveLength(COUNT);
  });

  it('our show and log read every note native git wrote', () => {
    const show = handoff(repo, ['show']);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain('no handoff on branch main yet; showing the newest one');
    expect(show.stdout).toContain(`native ${COUNT}`);
    expect(handoff(repo, ['show', '--json']).json).toMatchObject({ target: commits[COUNT - 1], handoff: { summary: `native ${COUNT}` } });
    const log = handoff(repo, ['log', '--json', '--all']).json.versions;
    expect(log).toHaveLength(COUNT);
    expect(log.every((v: any) => v.valid)).toBe(true);
    expect(log.map((v: any) => v.target)).toEqual([...commits].reverse());
    expect(log.map((v: any) => v.summary)).toEqual(commits.map((_, i) => `native ${i + 1}`).reverse());
    expect(handoff(repo, ['show', '--json', '--all', '--version', `~${COUNT - 1}`]).json.handoff.summary).toBe('native 1');
    expect(handoff(repo, ['show', '--json', '--version', repo.git('rev-parse', 'refs/notes/handoff~7').trim()]).json.target).toBe(commits[COUNT - 8]);
  });

  it('our write replaces a note native git wrote at a fan-out path, read back by native git', () => {
    const w = handoff(repo, ['write', '--json', '--summary', 'ours on the tip']);
    expect(w.code, w.stderr).toBe(0);
    expect(w.json.target).toBe(commits[COUNT - 1]);
    expect(repo.nativeNote()).toContain('summary: ours on the tip\n');
    expect(noteTargets(repo)).toHaveLength(COUNT);
    expectNoDuplicates(repo);
    expect(repo.git('log', '--notes=handoff', '-1', '--format=%N')).toContain('summary: ours on the tip');
    // an older commit, checked out detached, keeps its own note apart
    const old = commits[40];
    repo.git('checkout', '-q', '--detach', old);
    try {
      expect(handoff(repo, ['write', '--summary', 'ours on an old one']).code).toBe(0);
    } finally {
      repo.git('checkout', '-q', 'main');
    }
    expect(repo.nativeNote(old)).toContain('summary: ours on an old one\n');
    expect(repo.nativeNote(commits[41])).toBe('summary: native 42\nstatus: active\n');
    expectNoDuplicates(repo);
  });

  it('our notes for new commits land where native git finds them, with or without a subtree for their prefix', () => {
    const prefixes = new Set(repo.git('ls-tree', '--name-only', 'refs/notes/handoff').trim().split('\n'));
    const made: { commit: string; hasSubtree: boolean }[] = [];
    for (let i = 0; i < 60 && !(made.some((m) => m.hasSubtree) && made.some((m) => !m.hasSubtree)); i++) {
      const c = repo.commit(`feat: new ${i}`);
      const hasSubtree = prefixes.has(c.slice(0, 2));
      if (made.some((m) => m.hasSubtree === hasSubtree)) continue;
      const w = handoff(repo, ['write', '--json', '--summary', `ours at ${c.slice(0, 7)}`]);
      expect(w.code, w.stderr).toBe(0);
      made.push({ commit: c, hasSubtree });
    }
    expect(made.map((m) => m.hasSubtree).sort()).toEqual([false, true]);
    for (const { commit } of made) {
      expect(repo.nativeNote(commit)).toContain(`summary: ours at ${commit.slice(0, 7)}\n`);
      expect(repo.git('log', '--notes=handoff', '-1', '--format=%N', commit)).toContain(`ours at ${commit.slice(0, 7)}`);
    }
    expectNoDuplicates(repo);
    // native git builds on our tree: it keeps our notes and adds its own, no duplicates
    const next = repo.commit('feat: native after ours');
    repo.git('notes', '--ref=handoff', 'add', '-m', 'summary: native after ours', next);
    for (const { commit } of made) expect(repo.nativeNote(commit)).toContain('ours at');
    expectNoDuplicates(repo);
    expect(handoff(repo, ['show', '--json', '--all']).json.handoff.summary).toBe('native after ours');
    expect(handoff(repo, ['log', '--json', '--all']).json.versions).toHaveLength(COUNT + 2 + made.length + 1);
    repo.fsck();
  });
});

describe('concurrent writers', () => {
  it('lose no version: 8 parallel `git handoff write` processes all land, fsck clean', async () => {
    const repo = TestRepo.init();
    repo.commit('feat: one', { 'a.txt': 'a\n' });
    expect(handoff(repo, ['write', '--summary', 'base']).code).toBe(0);
    const N = 8;
    const results = await Promise.all(
      Array.from({ length: N }, (_, i) => handoffAsync(repo, ['write', '--json'], { input: `summary: parallel ${i}\nguards: [writer ${i}]\n` })),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const written = results.map((r) => r.json.version);
    expect(new Set(written).size).toBe(N);
    const log = handoff(repo, ['log', '--json']).json.versions;
    expect(log).toHaveLength(N + 1);
    expect(new Set(log.map((v: any) => v.summary))).toEqual(new Set(['base', ...Array.from({ length: N }, (_, i) => `parallel ${i}`)]));
    expect(new Set(log.map((v: any) => v.version))).toEqual(new Set([...written, log[N].version]));
    // one linear history, one reflog entry per version, every object sound
    expect(repo.git('rev-list', '--count', '--min-parents=2', 'refs/notes/handoff').trim()).toBe('0');
    expect(repo.git('reflog', 'show', '--format=%gs', 'refs/notes/handoff').trim().split('\n')).toEqual(Array(N + 1).fill('handoff: version'));
    repo.fsck();
  });
});

describe('a native `git notes add -f` landing between our read and our update', () => {
  // A `git` wrapper first on PATH runs the native write right before our ref update lands:
  // the exact moment a compare-and-swap exists for. With `update-ref --stdin` (started
  // early, sent its command at the end) it waits for that command before injecting.
  // `git-handoff` is run directly, because `git handoff` would put git's exec-path (and
  // its own `git`) first on PATH.
  function wrapper(dir: string): string {
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const bin = join(dir, 'bin');
    execFileSync('mkdir', ['-p', bin]);
    writeFileSync(
      join(bin, 'git'),
      `#!/bin/sh
inject() {
  if [ -n "$INJECT_TARGET" ] && [ ! -e "$INJECT_MARK" ]; then
    : > "$INJECT_MARK"
    "${real}" notes --ref=handoff add -f -m "summary: native landed first" "$INJECT_TARGET" >/dev/null 2>&1 || exit 99
  fi
}
if [ "$1" = "update-ref" ]; then
  case " $* " in
    *" --stdin "*)
      input=$(cat)
      [ -z "$input" ] && exec "${real}" "$@" </dev/null
      inject
      printf '%s\n' "$input" | "${real}" "$@"
      exit $?;;
    *) inject;;
  esac
fi
exec "${real}" "$@"
`,
    );
    chmodSync(join(bin, 'git'), 0o755);
    return bin;
  }

  it.each([
    ['another commit', 'HEAD~1'],
    ['the same commit', 'HEAD'],
  ])('on %s: it is built upon, never overwritten', (_n, rev) => {
    const repo = TestRepo.init();
    repo.commit('feat: one');
    const head = repo.commit('feat: two');
    const nativeTarget = repo.git('rev-parse', rev).trim();
    const base = handoff(repo, ['write', '--json', '--summary', 'base']).json.version;
    const dir = tempDir();
    const mark = join(dir, 'injected');
    const w = handoff(repo, ['write', '--json', '--summary', 'ours'], {
      via: 'bin',
      env: { PATH: `${wrapper(dir)}:${cliPath()}`, INJECT_TARGET: nativeTarget, INJECT_MARK: mark },
    });
    expect(existsSync(mark)).toBe(true);
    expect(w.code, w.stderr).toBe(0);
    const nativeCommit = repo.git('rev-parse', 'refs/notes/handoff~1').trim();
    expect(repo.git('log', '-1', '--format=%s', nativeCommit).trim()).toBe("Notes added by 'git notes add'");
    expect(repo.git('rev-parse', 'refs/notes/handoff~2').trim()).toBe(base);
    expect(repo.notesRef()).toBe(w.json.version);
    expect(repo.nativeNote(head)).toContain('summary: ours\n');
    if (nativeTarget !== head) expect(repo.nativeNote(nativeTarget)).toBe('summary: native landed first\n');
    const log = handoff(repo, ['log', '--json', '--all']).json.versions;
    expect(log.map((v: any) => [v.version, v.summary])).toEqual([
      [w.json.version, 'ours'],
      [nativeCommit, 'native landed first'],
      [base, 'base'],
    ]);
    expect(repo.git('reflog', 'show', '--format=%gs', 'refs/notes/handoff').trim().split('\n')).toEqual([
      'handoff: version',
      "notes: Notes added by 'git notes add'",
      'handoff: version',
    ]);
    expectNoDuplicates(repo);
    repo.fsck();
  });
});

describe('packed refs and objects', () => {
  it('read and write after git gc packed the notes ref and its objects', () => {
    const repo = TestRepo.init();
    repo.commit('feat: one', { 'a.txt': 'a\n' });
    const v1 = handoff(repo, ['write', '--json', '--summary', 'before gc']).json.version;
    repo.git('gc', '-q', '--prune=now');
    expect(existsSync(join(repo.dir, '.git/refs/notes/handoff'))).toBe(false);
    expect(handoff(repo, ['show', '--json']).json).toMatchObject({ version: v1, handoff: { summary: 'before gc' } });
    repo.commit('feat: two');
    const w = handoff(repo, ['write', '--json', '--summary', 'after gc']);
    expect(w.code, w.stderr).toBe(0);
    expect(repo.git('rev-parse', 'refs/notes/handoff~1').trim()).toBe(v1);
    expect(handoff(repo, ['log', '--json']).json.versions.map((v: any) => v.summary)).toEqual(['after gc', 'before gc']);
    repo.fsck();
  });
});
