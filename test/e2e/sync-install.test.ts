import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { handoff } from '../helpers/cli.js';
import { gitWithHooks, handoffLines, snapshot } from '../helpers/hooks.js';
import { Fleet, expectEverywhere, writeVersion, type FleetRepo } from '../helpers/fleet.js';

const REFSPEC = '+refs/notes/handoff*:refs/notes/remotes/origin/handoff*';
const gitState = (repo: FleetRepo) => snapshot(join(repo.dir, '.git'), (rel) => !/^(hooks|config|handoff)(\/|$)/.test(rel));

function remoteHead(fleet: Fleet, ref: string): string | null {
  const r = fleet.remote.gitRaw(['rev-parse', '-q', '--verify', ref]);
  return r.status === 0 ? r.stdout.trim() : null;
}

describe('init --sync: handoffs travel with git fetch and git push', () => {
  it('fetches with a refspec, pushes with the pre-push hook, and a plain git push still pushes the branch', () => {
    const fleet = new Fleet(2);
    const [a, b] = fleet.clones;
    const before = gitState(a);
    const init = handoff(a, ['init', '--sync', '--json']);
    expect(init.code, init.stderr).toBe(0);
    const steps = init.json.steps.filter((s: any) => s.installer === 'sync');
    expect(steps.map((s: any) => s.key ?? s.path.replace(`${a.dir}/`, ''))).toEqual(['remote.origin.fetch', '.git/hooks/pre-push']);
    expect(a.git('config', '--get-all', 'remote.origin.fetch').trim().split('\n')).toEqual(['+refs/heads/*:refs/remotes/origin/*', REFSPEC]);
    expect(a.gitRaw(['config', '--get-all', 'remote.origin.push']).status).toBe(1);
    expect(spawnSync('sh', ['-n', join(a.dir, '.git/hooks/pre-push')]).status).toBe(0);
    expect(handoff(a, ['init', '--sync', '--json']).json.changed).toBe(false);

    // The remote has no handoffs yet: git fetch and git pull still work.
    expect(gitWithHooks(a, ['fetch']).code).toBe(0);
    expect(gitWithHooks(a, ['pull', '-q', 'origin', 'main']).code).toBe(0);

    a.commit('feat: a', { 'a.txt': 'a\n' });
    const v1 = writeVersion(a, 'written on a');
    const push = gitWithHooks(a, ['push', '-u', 'origin', 'main']);
    expect(push.code, push.stderr).toBe(0);
    expect(handoffLines(push.stderr)).toEqual(['git-handoff: pushed the handoff history (refs/notes/handoff) to origin']);
    expect(remoteHead(fleet, 'main')).toBe(a.head());
    expect(remoteHead(fleet, 'refs/notes/handoff')).toBe(a.notesRef());

    // `git push --dry-run` runs pre-push too: it must not push the handoffs.
    writeVersion(a, 'not on a dry run');
    const notesBefore = remoteHead(fleet, 'refs/notes/handoff');
    for (const flag of ['--dry-run', '-nv']) {
      const dry = gitWithHooks(a, ['push', flag, 'origin', 'main']);
      expect(dry.code, dry.stderr).toBe(0);
      expect(handoffLines(dry.stderr)).toEqual([]);
      expect(remoteHead(fleet, 'refs/notes/handoff')).toBe(notesBefore);
    }
    expect(handoffLines(gitWithHooks(a, ['push', 'origin', 'main']).stderr)).toEqual([
      'git-handoff: pushed the handoff history (refs/notes/handoff) to origin',
    ]);

    // Nothing new: the hook stays silent; a plain `git push` still pushes the branch.
    a.commit('feat: more', { 'b.txt': 'b\n' });
    const plain = gitWithHooks(a, ['push']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(handoffLines(plain.stderr)).toEqual([]);
    expect(remoteHead(fleet, 'main')).toBe(a.head());

    // b: git pull brings the handoffs into the tracking ref; show says so.
    expect(handoff(b, ['init', '--sync']).code).toBe(0);
    b.git('branch', '-q', '--set-upstream-to=origin/main');
    expect(gitWithHooks(b, ['pull', '-q']).code).toBe(0);
    expect(b.git('rev-parse', 'refs/notes/remotes/origin/handoff').trim()).toBe(a.notesRef());
    const v2 = writeVersion(b, 'written on b, diverged');
    expect(handoff(b, ['show']).stdout).toMatch(/^origin has 2 handoff versions this clone lacks/m);
    b.commit('feat: b', { 'c.txt': 'c\n' });
    const pushB = gitWithHooks(b, ['push', 'origin', 'main']);
    expect(pushB.code, pushB.stderr).toBe(0);
    // v2 was written without a's versions (still only in the tracking ref): the merge leaves two heads, and the hook says so
    const heads = handoff(b, ['show', '--json']).json;
    expect(heads.diverged).toHaveLength(1);
    expect(handoffLines(pushB.stderr)).toEqual([
      'git-handoff: merged 2 handoff version(s) from origin and pushed the handoff history',
      expect.stringMatching(
        new RegExp(
          `^git-handoff: two sessions diverged: version ${heads.diverged[0].version.slice(0, 12)} .* and the latest, version ${heads.version.slice(0, 12)} .*; join them with 'git handoff write --continue ${heads.version.slice(0, 12)},${heads.diverged[0].version.slice(0, 12)}'$`,
        ),
      ),
    ]);
    expect(remoteHead(fleet, 'main')).toBe(b.head());
    expect(remoteHead(fleet, 'refs/notes/handoff')).toBe(b.notesRef());

    gitWithHooks(a, ['pull', '-q', '--no-rebase', 'origin', 'main']);
    expect(handoff(a, ['sync', '--json']).json.action).toBe('fast-forward');
    expectEverywhere(fleet, [v1, v2]);

    expect(handoff(a, ['uninstall']).code).toBe(0);
    expect(gitState(a)).toEqual(before);
  });

  it('never stops the push: a remote that refuses the notes gets one line, the branch goes through', () => {
    const fleet = new Fleet(1);
    const [a] = fleet.clones;
    handoff(a, ['init', '--sync']);
    const hook = join(fleet.remote.dir, 'hooks', 'pre-receive');
    writeFileSync(hook, '#!/bin/sh\nif grep -q refs/notes/; then echo "no notes here" >&2; exit 1; fi\nexit 0\n');
    chmodSync(hook, 0o755);
    a.commit('feat: a', { 'a.txt': 'a\n' });
    writeVersion(a, 'will not reach the remote');
    const push = gitWithHooks(a, ['push', 'origin', 'main']);
    expect(push.code, push.stderr).toBe(0);
    const lines = handoffLines(push.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^git-handoff: the handoff history was not pushed \(remote 'origin' refused .*\); your push goes on; run 'git handoff sync origin'$/,
    );
    expect(remoteHead(fleet, 'main')).toBe(a.head());
    expect(remoteHead(fleet, 'refs/notes/handoff')).toBeNull();
  });

  it('after a purge, the one line names the command that works: sync --force', () => {
    const fleet = new Fleet(1);
    const [a] = fleet.clones;
    handoff(a, ['init', '--sync']);
    a.git('config', 'handoff.secrets.allow', 'AKIA');
    const leaked = writeVersion(a, 'key AKIAQWERTYUIOPASDFGH');
    expect(gitWithHooks(a, ['push', 'origin', 'main']).code).toBe(0);
    expect(handoff(a, ['purge', leaked]).code).toBe(0);
    a.commit('feat: a', { 'a.txt': 'a\n' });
    const push = gitWithHooks(a, ['push', 'origin', 'main']);
    expect(push.code, push.stderr).toBe(0);
    const lines = handoffLines(push.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^git-handoff: the handoff history was not pushed \(remote 'origin' still holds purged version [0-9a-f]{12}; replace its copy with: git handoff sync --force origin\); your push goes on$/,
    );
    expect(remoteHead(fleet, 'main')).toBe(a.head());
  });

  it('a pre-push hook that was there runs first; when it stops the push, no notes are pushed', () => {
    const fleet = new Fleet(1);
    const [a] = fleet.clones;
    const existing = join(a.dir, '.git', 'hooks', 'pre-push');
    writeFileSync(existing, '#!/bin/sh\nread line\n[ -f allow-push ] || { echo "blocked by the team hook" >&2; exit 1; }\n');
    chmodSync(existing, 0o755);
    handoff(a, ['init', '--sync']);
    expect(readFileSync(`${existing}.pre-handoff`, 'utf8')).toContain('blocked by the team hook');
    a.commit('feat: a', { 'a.txt': 'a\n' });
    writeVersion(a, 'v');
    const blocked = gitWithHooks(a, ['push', 'origin', 'main']);
    expect(blocked.code).not.toBe(0);
    expect(blocked.stderr).toContain('blocked by the team hook');
    expect(remoteHead(fleet, 'refs/notes/handoff')).toBeNull();
    a.write('allow-push', '');
    expect(gitWithHooks(a, ['push', 'origin', 'main']).code).toBe(0);
    expect(remoteHead(fleet, 'refs/notes/handoff')).toBe(a.notesRef());
  });

  it('doctor re-sets hooks, agent settings and config init set that went missing', () => {
    const fleet = new Fleet(1);
    const [a] = fleet.clones;
    expect(handoff(a, ['init', '--sync', '--display', '--agent', 'claude']).code).toBe(0);
    expect(handoff(a, ['doctor', '--json']).json).toMatchObject({ healthy: true, findings: [] });
    rmSync(join(a.dir, '.claude', 'settings.local.json'));
    rmSync(join(a.dir, '.git', 'hooks', 'pre-push'));
    rmSync(join(a.dir, '.git', 'hooks', 'post-commit'));
    a.git('config', '--unset', 'remote.origin.fetch', 'refs/notes');
    a.git('config', '--unset', 'notes.displayRef');
    const check = handoff(a, ['doctor', '--json']);
    expect(check.code).toBe(1);
    expect(check.json.findings.map((f: any) => f.subject.replace(`${a.dir}/`, '')).sort()).toEqual(
      ['.claude/settings.local.json', '.git/hooks/post-commit', '.git/hooks/pre-push', 'notes.displayRef', 'remote.origin.fetch'].sort(),
    );
    expect(handoff(a, ['doctor', '--fix']).code).toBe(0);
    expect(handoff(a, ['doctor', '--json']).json).toMatchObject({ healthy: true, findings: [] });
    expect(a.git('config', '--get-all', 'remote.origin.fetch')).toContain(REFSPEC);
    expect(readFileSync(join(a.dir, '.git', 'hooks', 'pre-push'), 'utf8')).toContain('git-handoff hook shim (pre-push)');
  });

  it('under lefthook the pre-push command gets the remote name and uninstall takes it out', () => {
    const fleet = new Fleet(1);
    const [a] = fleet.clones;
    a.write('lefthook.yml', 'pre-commit:\n  commands:\n    lint:\n      run: echo lint\n');
    expect(handoff(a, ['init', '--sync']).code).toBe(0);
    expect(readFileSync(join(a.dir, 'lefthook.yml'), 'utf8')).toBe('pre-commit:\n  commands:\n    lint:\n      run: echo lint\n');
    const config = readFileSync(join(a.dir, 'lefthook-local.yml'), 'utf8');
    expect(config).toMatch(/^pre-push:\n {2}commands:\n(.*\n)* {6}run: '.*git-handoff hook pre-push \{1\} \{2\} <\/dev\/null \|\| :'$/m);
    expect(handoff(a, ['uninstall']).code).toBe(0);
    expect(existsSync(join(a.dir, 'lefthook-local.yml'))).toBe(false);
    expect(readFileSync(join(a.dir, 'lefthook.yml'), 'utf8')).toBe('pre-commit:\n  commands:\n    lint:\n      run: echo lint\n');
  });
});
