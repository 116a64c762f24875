import { beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { yamlBomb } from '../helpers/documents.js';

const DAY = 86_400;
const ids = (r: { json: any }) => r.json.versions.map((v: any) => v.version);

describe('show, log, diff over versions on several branches', () => {
  let repo: TestRepo;
  const v: Record<string, string> = {};
  const write = (name: string, args: string[], input?: string) => {
    const r = handoff(repo, ['write', '--json', ...args], { input });
    expect(r.code, r.stderr).toBe(0);
    v[name] = r.json.version;
  };
  beforeAll(() => {
    repo = TestRepo.init();
    repo.commit('feat: one', { 'a.txt': '1\n' });
    write(
      'm1',
      [],
      'summary: main one\ncursor:\n  last_discussed: the parser\n  pending_questions: [RFC 4180?]\n  next_step: tests\nguards: [no force push]\n',
    );
    repo.commit('feat: two', { 'a.txt': '2\n' });
    write('m2', ['--summary', 'main two', '--status', 'paused']);
    repo.git('checkout', '-q', '-b', 'feature');
    repo.commit('feat: on feature', { 'b.txt': 'b\n' });
    write('f1', ['--summary', 'feature one']);
    repo.git('checkout', '-q', 'main');
    repo.commit('feat: three', { 'a.txt': '3\n' });
    write('m3', ['--summary', 'main three', '--next-step', 'ship', '--status', 'active']);
  });

  it('show prints the bookmark of the latest version of the current branch, cursor first', () => {
    const r = handoff(repo, ['show']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    const head = lines.findIndex((l) => l.startsWith('handoff '));
    expect(lines[head]).toMatch(new RegExp(`^handoff ${v.m3.slice(0, 12)} · on main · at [0-9a-f]{7} · 2026-01-01 \\d\\d:\\d\\d:\\d\\d UTC · active$`));
    expect(lines[head + 1]).toBe('main three');
    expect(lines[head + 2]).toBe('Cursor');
    expect(lines.slice(head + 3, head + 6)).toEqual(['  last discussed: the parser', '  pending 1: RFC 4180?', '  next step: ship']);
    expect(r.stdout.indexOf('Cursor')).toBeLessThan(r.stdout.indexOf('Guards'));
    expect(r.stdout.indexOf('Guards')).toBeLessThan(r.stdout.indexOf('Recent commits'));
    expect(lines.length).toBeLessThanOrEqual(30);
  });

  it('show --json has exactly its documented keys, in order', () => {
    const r = handoff(repo, ['show', '--json']);
    expect(Object.keys(r.json)).toEqual([
      'ok',
      'version',
      'target',
      'date',
      'author',
      'origin',
      'signature',
      'stale',
      'age_days',
      'due',
      'due_reason',
      'continues',
      'diverged',
      'visibility',
      'readable',
      'handoff',
    ]);
    expect(r.json).toMatchObject({ ok: true, version: v.m3, target: repo.head(), due: false, due_reason: null, diverged: false });
    // m3 patched main's head, m2 (the feature's version beside it is another branch's)
    expect(r.json.continues).toEqual([v.m2]);
    expect(r.json.date).toMatch(/^2026-01-01T\d\d:\d\d:\d\dZ$/);
    expect(r.json.date).toBe(r.json.handoff.date);
    expect(typeof r.json.stale).toBe('boolean');
    expect(Number.isInteger(r.json.age_days)).toBe(true);
    expect(r.json.handoff).toMatchObject({ schema: 1, summary: 'main three', branch: 'main' });
  });

  it('show --version takes a full id, a unique prefix and ~N', () => {
    expect(handoff(repo, ['show', '--json', '--version', v.m1]).json.version).toBe(v.m1);
    expect(handoff(repo, ['show', '--json', '--version', v.m2.slice(0, 12)]).json.version).toBe(v.m2);
    expect(handoff(repo, ['show', '--json', '--version', '~0']).json.version).toBe(v.m3);
    expect(handoff(repo, ['show', '--json', '--version', '~1']).json.version).toBe(v.m2);
    expect(handoff(repo, ['show', '--json', '--version', '~2']).json.version).toBe(v.m1);
    expect(handoff(repo, ['show', '--version', '~1']).stdout).toContain('main two');
    for (const bad of ['~3', 'ffffffffff', 'not-a-version']) {
      const r = handoff(repo, ['show', '--version', bad]);
      expect(r.code).toBe(1);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^git handoff: (no version|not a version name)/);
    }
  });

  it('show --branch and --all choose another branch or the newest overall', () => {
    expect(handoff(repo, ['show', '--json', '--branch', 'feature']).json.version).toBe(v.f1);
    expect(handoff(repo, ['show', '--json', '--all']).json.version).toBe(v.m3);
    expect(handoff(repo, ['show', '--json', '--branch', 'feature', '--version', '~0']).json.version).toBe(v.f1);
    expect(handoff(repo, ['show', '--json', '--all', '--version', '~1']).json.version).toBe(v.f1);
  });

  it('show on a branch without versions shows the newest one and says so in one line', () => {
    repo.git('checkout', '-q', '-b', 'empty-branch');
    try {
      const r = handoff(repo, ['show']);
      expect(r.stdout.split('\n')).toContain('no handoff on branch empty-branch yet; showing the newest one (from main)');
      expect(handoff(repo, ['show', '--json']).json.version).toBe(v.m3);
    } finally {
      repo.git('checkout', '-q', 'main');
    }
  });

  it('log lists versions newest first, one line each, with -n, --branch, --all', () => {
    const r = handoff(repo, ['log']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => l.slice(0, 12))).toEqual([v.m3, v.m2, v.m1].map((x) => x.slice(0, 12)));
    expect(lines[1]).toMatch(/ main paused main two$/);
    expect(ids(handoff(repo, ['log', '--json', '-n', '2']))).toEqual([v.m3, v.m2]);
    expect(ids(handoff(repo, ['log', '--json', '--max-count', '0']))).toEqual([]);
    expect(ids(handoff(repo, ['log', '--json', '--branch', 'feature']))).toEqual([v.f1]);
    expect(ids(handoff(repo, ['log', '--json', '--all']))).toEqual([v.m3, v.f1, v.m2, v.m1]);
  });

  it('log --json has exactly the documented shape', () => {
    const r = handoff(repo, ['log', '--json', '-n', '1']);
    expect(Object.keys(r.json)).toEqual(['ok', 'versions']);
    expect(Object.keys(r.json.versions[0])).toEqual([
      'version',
      'target',
      'date',
      'valid',
      'session_id',
      'status',
      'summary',
      'continues',
      'author',
      'origin',
      'signature',
      'visibility',
      'readable',
    ]);
    expect(r.json.versions[0]).toMatchObject({ version: v.m3, target: repo.head(), valid: true, session_id: null, status: 'active', summary: 'main three' });
  });

  it('diff compares the previous and the latest version field by field, or any two', () => {
    const r = handoff(repo, ['diff']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^diff ${v.m2.slice(0, 12)}\\.\\.${v.m3.slice(0, 12)}\n`));
    expect(r.stdout).toContain('status:\n  - paused\n  + active\n');
    expect(r.stdout).toContain('summary:\n  - main two\n  + main three\n');
    expect(r.stdout).toContain('cursor.next_step:\n  - tests\n  + ship\n');
    const j = handoff(repo, ['diff', '--json', v.m1.slice(0, 10), '~0']);
    expect(Object.keys(j.json)).toEqual(['ok', 'old', 'new', 'changes']);
    expect(j.json).toMatchObject({ ok: true, old: v.m1, new: v.m3 });
    expect(j.json.changes).toContainEqual({ field: 'summary', change: 'changed', old: 'main one', new: 'main three' });
    expect(j.json.changes.every((c: any) => Object.keys(c).join() === 'field,change,old,new')).toBe(true);
    const same = handoff(repo, ['diff', v.m1, v.m1]);
    expect(same.stdout).toContain('(no changes)');
    // one version is no error (as `git log -p` shows a first commit): nothing to compare yet, exit 0
    const one = handoff(repo, ['diff', '--branch', 'feature']);
    const only = handoff(repo, ['show', '--branch', 'feature', '--json']).json.version;
    expect(one).toMatchObject({
      code: 0,
      stderr: '',
      stdout: `nothing to compare yet: one version so far (${only.slice(0, 12)}); git handoff show prints it\n`,
    });
    expect(handoff(repo, ['diff', '--branch', 'feature', '--json']).json).toEqual({ ok: true, old: null, new: only, changes: [] });
    const fresh = TestRepo.init();
    fresh.commit('init');
    expect(handoff(fresh, ['diff'])).toMatchObject({ code: 0, stdout: 'nothing to compare yet: no version so far\n' });
    // a version named that does not exist is still refused
    expect(handoff(repo, ['diff', '~5', '~0', '--branch', 'feature']).code).toBe(1);
  });

  it('every read command works from a subfolder', () => {
    mkdirSync(join(repo.dir, 'deep/er'), { recursive: true });
    const cwd = join(repo.dir, 'deep/er');
    expect(handoff(repo, ['show', '--json'], { cwd }).json.version).toBe(v.m3);
    expect(ids(handoff(repo, ['log', '--json'], { cwd }))).toHaveLength(3);
    expect(handoff(repo, ['diff', '--json'], { cwd }).json.new).toBe(v.m3);
  });
});

describe("the bookmark's notices", () => {
  it('are at most 5 lines, the fifth naming how many more and show --notices, which prints every one', () => {
    const repo = TestRepo.init();
    repo.commit('init');
    expect(handoff(repo, ['write', '--summary', 'the last good one']).code).toBe(0);
    for (let i = 1; i <= 7; i++) {
      repo.commit(`c${i}`);
      repo.git('notes', '--ref=handoff', 'add', '-f', '-m', `summary: [unclosed ${i}`, 'HEAD');
    }
    const all = handoff(repo, ['show', '--notices']);
    expect(all.code).toBe(0);
    const every = all.stdout.trimEnd().split('\n');
    expect(every.filter((l) => l.startsWith('warning: skipped version '))).toHaveLength(7);
    const show = handoff(repo, ['show']);
    expect(show.code).toBe(0);
    const lines = show.stdout.split('\n');
    // The lines about the shown version (here: stale) stay; the skipped-version warnings are hidden first.
    const others = every.filter((l) => !l.startsWith('warning: skipped version '));
    expect(others.length).toBeGreaterThan(0);
    const skipped = every.filter((l) => l.startsWith('warning: skipped version ')).slice(0, 4 - others.length);
    expect(lines.slice(0, 5)).toEqual([
      ...every.filter((l) => others.includes(l) || skipped.includes(l)),
      `… ${every.length - 4} more notices: git handoff show --notices`,
    ]);
    expect(lines[5]).toMatch(/^handoff /);
  });
});

describe('stale and due', () => {
  it('warns "stale" with the age in days past handoff.staleDays (default 7)', () => {
    const repo = TestRepo.init();
    repo.commit('feat: one');
    const tenDaysAgo = Math.floor(Date.now() / 1000) - 10 * DAY - 3600;
    const date = `@${tenDaysAgo} +0000`;
    const w = handoff(repo, ['write', '--summary', 'old news'], { env: { GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date } });
    expect(w.code, w.stderr).toBe(0);
    const r = handoff(repo, ['show']);
    const stale = r.stdout.split('\n').filter((l) => /stale/.test(l));
    expect(stale).toHaveLength(1);
    expect(stale[0]).toMatch(/\b10 days\b/);
    expect(handoff(repo, ['show', '--json']).json).toMatchObject({ stale: true, age_days: 10 });
    repo.git('config', 'handoff.staleDays', '30');
    expect(handoff(repo, ['show']).stdout).not.toMatch(/stale/);
    expect(handoff(repo, ['show', '--json']).json).toMatchObject({ stale: false, age_days: 10 });
    repo.git('config', 'handoff.staleDays', '9');
    expect(handoff(repo, ['show']).stdout).toMatch(/stale/);
    // a fresh version is not stale
    const now = `@${Math.floor(Date.now() / 1000)} +0000`;
    handoff(repo, ['write', '--summary', 'fresh'], { env: { GIT_COMMITTER_DATE: now, GIT_AUTHOR_DATE: now } });
    expect(handoff(repo, ['show', '--json']).json).toMatchObject({ stale: false, age_days: 0 });
  });

  it('is due once a commit with a non-excluded subject lands after the latest version', () => {
    const repo = TestRepo.init();
    repo.commit('feat: one');
    expect(handoff(repo, ['write', '--summary', 's']).code).toBe(0);
    repo.commit('docs: readme');
    expect(handoff(repo, ['show', '--json']).json).toMatchObject({ due: false, due_reason: null });
    const c = repo.commit('feat: real work');
    const r = handoff(repo, ['show', '--json']);
    expect(r.json.due).toBe(true);
    expect(r.json.due_reason).toMatchObject({ commit: c });
    expect(Object.keys(r.json.due_reason)).toEqual(['rule', 'commit']);
    expect(handoff(repo, ['show']).stdout).toMatch(/a handoff is due: commit [0-9a-f]{7} was made since this one/);
  });
});

describe('invalid notes', () => {
  it('show skips them with a warning, log marks them invalid', () => {
    const repo = TestRepo.init();
    repo.commit('feat: one');
    repo.git('notes', '--ref=handoff', 'add', '-m', 'summary: by hand\nguards: [keep it]');
    const c2 = repo.commit('feat: two');
    repo.git('notes', '--ref=handoff', 'add', '-m', 'summary: [a, list]', c2);
    const r = handoff(repo, ['show']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/warning: skipped version [0-9a-f]{12}: not a valid handoff \(summary: must be a string, not a list\)/);
    expect(r.stdout).toContain('by hand');
    const log = handoff(repo, ['log', '--json']).json.versions;
    expect(log.map((x: any) => x.valid)).toEqual([false, true]);
    expect(log[1]).toMatchObject({ summary: 'by hand', status: null, session_id: null });
    expect(handoff(repo, ['log']).stdout).toMatch(/\(invalid: summary: must be a string, not a list\)/);
  });

  it('skips a note whose aliases would expand without bound (a note fetched from anywhere)', () => {
    const repo = TestRepo.init();
    repo.commit('feat: one');
    expect(handoff(repo, ['write', '--summary', 'sane']).code).toBe(0);
    const c2 = repo.commit('feat: two');
    repo.gitRaw(['notes', '--ref=handoff', 'add', '-F', '-', c2], { input: yamlBomb() });
    const r = handoff(repo, ['show', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.handoff.summary).toBe('sane');
    expect(handoff(repo, ['show']).stdout).toMatch(/skipped version [0-9a-f]{12}: not a valid handoff \(invalid YAML: its aliases expand it past/);
    expect(handoff(repo, ['log', '--json', '--all']).json.versions.map((v: any) => v.valid)).toEqual([false, true]);
  });

  it('show warns even when no valid version is left, and still exits 0', () => {
    const repo = TestRepo.init();
    repo.commit('feat: one');
    repo.git('notes', '--ref=handoff', 'add', '-m', 'just some text, not a mapping');
    const r = handoff(repo, ['show']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^warning: skipped version [0-9a-f]{12}: not a valid handoff \(\(note\): is not a YAML mapping but a string\)\n$/);
    expect(handoff(repo, ['show', '--json']).json).toEqual({ ok: true, handoff: null, due: false });
  });
});

describe('a handoff is due', () => {
  it('after a commit that carries only a note that is no valid handoff (skipped, not a handoff written since)', () => {
    const repo = TestRepo.init();
    repo.commit('feat: one', { 'a.txt': '1\n' });
    expect(handoff(repo, ['write', '--summary', 'the parser is half done']).code).toBe(0);
    const two = repo.commit('feat: two', { 'a.txt': '2\n' });
    repo.git('notes', '--ref=handoff', 'add', '-m', 'summary: [a, list]', two);
    const show = handoff(repo, ['show', '--json']);
    expect(show.code, show.stderr).toBe(0);
    expect(show.json).toMatchObject({ due: true });
    expect(handoff(repo, ['show']).stdout).toContain(`a handoff is due: commit ${two.slice(0, 7)} was made since this one`);
  });
});
