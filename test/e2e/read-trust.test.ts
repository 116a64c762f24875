/**
 * Asked for one thing, never silently given another: a branch or version that
 * does not exist is refused, naming those that do; a fresh clone is told how handoffs
 * travel. Packed CLI, real git.
 */
import { describe, expect, it } from 'vitest';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';

function twoBranches(): TestRepo {
  const repo = TestRepo.init();
  repo.commit('feat: start', { 'a.txt': 'a\n' });
  expect(handoff(repo, ['write', '--summary', 'on main']).code).toBe(0);
  repo.git('checkout', '-q', '-b', 'feature/div');
  repo.commit('feat: div', { 'b.txt': 'b\n' });
  expect(handoff(repo, ['write', '--summary', 'on div 1']).code).toBe(0);
  expect(handoff(repo, ['write', '--summary', 'on div 2']).code).toBe(0);
  repo.git('checkout', '-q', 'main');
  return repo;
}

const oneLine = (stderr: string) => stderr.trimEnd().split('\n');

describe('a branch or version that does not exist', () => {
  const repo = twoBranches();

  it.each([['show'], ['log'], ['diff'], ['export']])('%s --branch nosuch: exit 1 naming the branches that have handoffs, nothing shown', (cmd) => {
    const r = handoff(repo, [cmd, '--branch', 'nosuch']);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toBe('');
    expect(oneLine(r.stderr)).toEqual(["git handoff: no handoff on branch 'nosuch'; branches with handoffs: feature/div, main"]);
    const j = handoff(repo, [cmd, '--branch', 'nosuch', '--json']);
    if (cmd !== 'export')
      expect(j.json).toMatchObject({ ok: false, error: { code: 'UnknownBranch', data: { branch: 'nosuch', branches: ['feature/div', 'main'] } } });
  });

  it('--branch that exists still answers for that branch only', () => {
    const s = handoff(repo, ['show', '--branch', 'feature/div']);
    expect(s.code).toBe(0);
    expect(s.stdout).toContain('on div 2');
    const l = handoff(repo, ['log', '--branch', 'main']);
    expect(l.stdout.trimEnd().split('\n')).toHaveLength(1);
    const d = handoff(repo, ['diff', '--branch', 'main']);
    expect(d.code).toBe(0);
    expect(d.stdout).toMatch(/^nothing to compare yet: one version so far/);
  });

  it('a version that does not exist: exit 1 naming the newest versions', () => {
    const ids = handoff(repo, ['log', '--all', '--json']).json.versions.map((v: { version: string }) => v.version.slice(0, 12));
    for (const args of [
      ['show', '--version', 'deadbeef'],
      ['diff', 'deadbeef'],
      ['show', '--version', 'nosuch'],
    ]) {
      const r = handoff(repo, args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(oneLine(r.stderr)).toHaveLength(1);
      expect(r.stderr).toContain(`the newest versions are ${ids.join(', ')}`);
    }
    const far = handoff(repo, ['show', '--version', '~5', '--branch', 'feature/div']);
    expect(far.code).toBe(1);
    expect(far.stderr).toMatch(/no version ~5: there is only 1 version before the latest on feature\/div/);
  });
});

describe('a branch with no version yet (found in review)', () => {
  it('export says whose handoff it exported, as show does, on stderr only', () => {
    const repo = twoBranches();
    repo.git('checkout', '-q', '-b', 'fresh');
    const r = handoff(repo, ['export', '--format', 'yaml']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('summary: on div 2\n');
    expect(oneLine(r.stderr)).toEqual(['git handoff: no handoff on branch fresh yet; exporting the newest one (from feature/div)']);
    repo.git('checkout', '-q', 'main');
    expect(handoff(repo, ['export', '--format', 'yaml']).stderr).toBe('');
  });
});

describe('a fresh clone', () => {
  it('show says in one line that handoffs travel separately and how to fetch them, without a network call', () => {
    const origin = twoBranches();
    const dir = tempDir();
    const clone = new TestRepo(dir, origin.env);
    clone.git('clone', '-q', origin.dir, dir);
    expect(clone.notesRef()).toBeNull();
    // the remote's URL now points nowhere: show must not need it
    clone.git('remote', 'set-url', 'origin', '/nonexistent/remote.git');
    const s = handoff(clone, ['show']);
    expect(s.code).toBe(0);
    expect(s.stdout).toBe('');
    expect(oneLine(s.stderr)).toEqual([
      "no handoff in this clone yet: handoffs travel separately from the code (git clone and fetch do not bring refs/notes/handoff); get them with 'git handoff sync origin'",
    ]);
    clone.git('remote', 'set-url', 'origin', origin.dir);
    expect(handoff(clone, ['sync', 'origin']).code).toBe(0);
    const after = handoff(clone, ['show']);
    expect(after.stdout).toContain('on main');
    expect(after.stderr).toBe('');
  });

  it('a repository with no remote and no handoff stays silent', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    const s = handoff(repo, ['show']);
    expect(s).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});
