/**
 * No git warning may ever appear because of us. Before the first handoff exists,
 * an exact `notes.rewriteRef=refs/notes/handoff` made git print `warning: notes ref
 * refs/notes/handoff is invalid` on every amend and rebase (HANDOFF_SKIP cannot silence git).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { commitWithHooks, gitWithHooks } from '../helpers/hooks.js';

describe('git prints no warning because of init', () => {
  it('amend and rebase before the first handoff: silent; after it, notes still carried by git itself', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    repo.commit('feat: second', { 'b.txt': 'b\n' });
    expect(handoff(repo, ['init']).code).toBe(0);
    const amend = commitWithHooks(repo, 'feat: second, amended', {}, { args: ['--amend'] });
    expect(amend.code).toBe(0);
    expect(amend.stderr).not.toMatch(/warning/);
    const rebase = gitWithHooks(repo, ['rebase', '-q', '--force-rebase', 'HEAD~1'], { env: { HANDOFF_SKIP: '1' } });
    expect(rebase.code).toBe(0);
    expect(rebase.stderr).not.toMatch(/warning/);
    expect(repo.notesRef()).toBe(null);

    // Once a handoff exists, git's own rewrite copying carries it (our post-rewrite hook is
    // switched off with HANDOFF_SKIP so only git can have carried it).
    expect(handoff(repo, ['write', '--summary', 'carried by git']).code).toBe(0);
    const again = commitWithHooks(repo, 'feat: second, amended again', {}, { args: ['--amend'], env: { HANDOFF_SKIP: '1' } });
    expect(again.stderr).not.toMatch(/warning/);
    expect(repo.nativeNote(again.head)).toContain('summary: carried by git');
    const rebased = gitWithHooks(repo, ['rebase', '-q', '--force-rebase', 'HEAD~1'], { env: { HANDOFF_SKIP: '1' } });
    expect(rebased.stderr).not.toMatch(/warning/);
    expect(repo.nativeNote('HEAD')).toContain('summary: carried by git');
    expect(handoff(repo, ['show', '--json']).json.handoff.summary).toBe('carried by git');
  });

  it('an install by an earlier version (exact notes.rewriteRef) is reported by doctor and moved to the glob by --fix', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    handoff(repo, ['init']);
    // What init wrote before: the exact ref, recorded as ours.
    repo.git('config', '--unset-all', 'notes.rewriteRef');
    repo.git('config', 'notes.rewriteRef', 'refs/notes/handoff');
    const recordPath = join(repo.dir, '.git/handoff/install.json');
    const record = JSON.parse(readFileSync(recordPath, 'utf8'));
    for (const c of record.config) if (c.key === 'notes.rewriteRef') c.value = 'refs/notes/handoff';
    writeFileSync(recordPath, JSON.stringify(record));
    expect(commitWithHooks(repo, 'feat: x', {}, { args: ['--amend'] }).stderr).toContain('warning: notes ref refs/notes/handoff is invalid');

    const doctor = handoff(repo, ['doctor', '--json']);
    expect(doctor.code).toBe(1);
    expect(doctor.json.findings.map((f: any) => f.message).join('\n')).toContain("git warns 'notes ref refs/notes/handoff is invalid'");
    expect(handoff(repo, ['doctor', '--fix']).code).toBe(0);
    expect(repo.git('config', '--get-all', 'notes.rewriteRef').trim()).toBe('refs/notes/handof[f]');
    expect(commitWithHooks(repo, 'feat: y', {}, { args: ['--amend'] }).stderr).not.toMatch(/warning/);
    handoff(repo, ['uninstall']);
    expect(repo.gitRaw(['config', '--get-regexp', '^notes\\.']).stdout).toBe('');
  });
});
