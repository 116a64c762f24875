import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { handoff } from '../helpers/cli.js';
import { TestRepo, tempDir } from '../helpers/repo.js';

/**
 * `show` on a branch with no version reads which branches have one from a cache
 * under .git/handoff/, keyed by the notes ref's value, instead of walking the history. What
 * it shows must be what the full walk shows, whatever moved the ref: our writes, a native
 * `git notes add`, an invalid note, a `purge` rewriting the history.
 */
describe('show on a branch with no version: the branch index', () => {
  const repo = TestRepo.init();
  const index = join(repo.dir, '.git', 'handoff', 'branch-index.json');
  const nativeNote = (text: string, target = 'HEAD') => {
    const file = join(tempDir(), 'note');
    writeFileSync(file, text);
    repo.git('notes', '--ref=handoff', 'add', '-f', '-F', file, target);
    return repo.notesRef()!;
  };
  /** show and show --json with the cache as it is, then without any (the full walk): the same answers. */
  const show = (): { version: string; fallback: boolean } => {
    const cached = [handoff(repo, ['show']), handoff(repo, ['show', '--json'])];
    expect(cached[1].code, cached[1].stderr).toBe(0);
    const saved = existsSync(index) ? readFileSync(index) : null;
    rmSync(index, { force: true });
    const walked = [handoff(repo, ['show']), handoff(repo, ['show', '--json'])];
    if (saved) writeFileSync(index, saved);
    for (const i of [0, 1]) {
      expect(cached[i].stdout).toBe(walked[i].stdout);
      expect(cached[i].stderr).toBe(walked[i].stderr);
    }
    return { version: cached[1].json.version, fallback: /no handoff on branch \S+ yet; showing the newest one/.test(cached[0].stdout) };
  };

  repo.commit('feat: start', { 'a.txt': 'a\n' });
  const m1 = handoff(repo, ['write', '--json', '--summary', 'main one']).json.version as string;

  it('a new branch falls back to the newest version, and the index is saved at the tip', () => {
    repo.git('checkout', '-q', '-b', 'feature');
    const r = show();
    expect(r.fallback).toBe(true);
    expect(r.version).toBe(m1);
    expect(JSON.parse(readFileSync(index, 'utf8'))).toMatchObject({ tip: repo.notesRef(), branches: ['main'], unplaced: 0 });
  });

  it('follows writes on another branch and a native git notes add naming this branch', () => {
    repo.git('checkout', '-q', 'main');
    const m2 = handoff(repo, ['write', '--json', '--summary', 'main two']).json.version as string;
    repo.git('checkout', '-q', 'feature');
    expect(show()).toMatchObject({ fallback: true, version: m2 });
    repo.commit('feat: on feature', { 'f.txt': 'f\n' });
    const native = nativeNote('schema: 1\nstatus: active\nsummary: by hand on feature\nbranch: feature\n');
    expect(show()).toMatchObject({ fallback: false, version: native });
    expect(JSON.parse(readFileSync(index, 'utf8')).branches).toEqual(expect.arrayContaining(['main', 'feature']));
  });

  it('an invalid note that names no branch is still warned about on a new branch', () => {
    repo.git('checkout', '-q', '-b', 'third');
    repo.commit('feat: third', { 't.txt': 't\n' });
    nativeNote('summary: [unclosed\n');
    const r = handoff(repo, ['show']);
    expect(r.stdout).toMatch(/warning: skipped version [0-9a-f]{12}: not a valid handoff/);
    expect(show().fallback).toBe(true);
  });

  it("after a purge rewrote the history the answer is the full walk's", () => {
    repo.git('checkout', '-q', 'main');
    const m3 = handoff(repo, ['write', '--json', '--summary', 'main three, to be purged']).json.version as string;
    repo.git('checkout', '-q', '-b', 'fourth');
    expect(show().version).toBe(m3);
    const before = JSON.parse(readFileSync(index, 'utf8')).tip;
    const p = handoff(repo, ['purge', m3]);
    expect(p.code, p.stderr).toBe(0);
    expect(repo.notesRef()).not.toBe(before);
    const r = show();
    expect(r.fallback).toBe(true);
    expect(r.version).not.toBe(m3);
    expect(JSON.parse(readFileSync(index, 'utf8')).tip).toBe(repo.notesRef());
    // A garbled cache is no cache.
    writeFileSync(index, '{"format":1,"tip":"nonsense"');
    show();
  });
});
