import { describe, expect, it } from 'vitest';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';

describe('write, show, log through `git handoff`', () => {
  it('appends a version that native git reads back', () => {
    const repo = TestRepo.init();
    const head = repo.commit('feat: first', { 'a.txt': 'a\n' });
    const w = handoff(repo, ['write', '--json'], { input: 'summary: parser done\ncursor:\n  next_step: write tests\nguards: [no force push]\n' });
    expect(w.code).toBe(0);
    expect(w.json.ok).toBe(true);
    expect(w.json.target).toBe(head);
    expect(w.json.unchanged).toBe(false);
    expect(w.json.version).toMatch(/^[0-9a-f]{40}$/);
    const note = repo.nativeNote();
    expect(note).toContain('summary: parser done\n');
    expect(note).toContain('guards:\n  - no force push\n');
    expect(note).toMatch(new RegExp(`^head: "?${head}"?$`, 'm'));
    expect(repo.git('log', '--notes=handoff', '-1')).toContain('next_step: write tests');

    const show = handoff(repo, ['show']);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('next step: write tests');
    const log = handoff(repo, ['log', '--json']);
    expect(log.json.versions).toHaveLength(1);
    expect(log.json.versions[0]).toMatchObject({ version: w.json.version, target: head, valid: true, status: 'active', summary: 'parser done' });
    repo.fsck();
  });

  it('prints nothing and exits 0 when there is no handoff', () => {
    const repo = TestRepo.init();
    repo.commit('init');
    const r = handoff(repo, ['show']);
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(handoff(repo, ['show', '--json']).json).toEqual({ ok: true, handoff: null, due: false });
  });
});
