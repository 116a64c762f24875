import { describe, expect, it } from 'vitest';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { handoff } from '../helpers/cli.js';
import { Fleet, sync, writeVersion, type FleetRepo } from '../helpers/fleet.js';
import { TestRepo } from '../helpers/repo.js';

const SECRET = 'AKIAQWERTYUIOPASDFGH';

/** Every object of the repository that still holds the secret (the remote included). */
function objectsWithSecret(repo: TestRepo, secret = SECRET): number {
  const out = repo.gitRaw(['cat-file', '--batch-all-objects', '--batch']).stdout;
  return out.split(secret).length - 1;
}

function footprint(repo: FleetRepo): string {
  return [repo.git('for-each-ref'), repo.gitRaw(['reflog', 'show', '--all']).stdout, repo.git('count-objects', '-v')].join('\n');
}

describe('purge: a leaked secret removed from every copy of the history', () => {
  it('tombstones the version, needs sync --force for the remote, and other clones follow on sync', () => {
    const fleet = new Fleet(2);
    const [a, b] = fleet.clones;
    const v1 = writeVersion(a, 'clean start');
    a.commit('feat: more');
    // A secret gets through: an over-broad allow pattern, removed afterwards.
    a.git('config', 'handoff.secrets.allow', 'AKIA');
    const leaked = writeVersion(a, `deploy with key ${SECRET}`);
    const v3 = writeVersion(a, 'later, clean');
    // The pattern also let the version through the scan before the push.
    sync(a);
    a.git('config', '--unset', 'handoff.secrets.allow');
    sync(b);
    const fromB = writeVersion(b, 'b kept working');
    expect(objectsWithSecret(b)).toBeGreaterThan(0);

    const before = footprint(a);
    const dry = handoff(a, ['purge', leaked.slice(0, 10), '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('dry run: nothing was written');
    expect(footprint(a)).toBe(before);

    const purge = handoff(a, ['purge', leaked.slice(0, 10), '--json']);
    expect(purge.code, purge.stderr).toBe(0);
    expect(purge.json.remotes).toEqual([{ remote: 'origin', command: 'git handoff sync --force origin' }]);
    expect(purge.json.purged[0].version).toBe(leaked);
    const human = handoff(a, ['log']);
    expect(human.stdout).toContain('(purged: this version held content');
    expect(a.git('log', '-p', 'refs/notes/handoff')).not.toContain(SECRET);
    // Versions before the purged one keep their ids; later ones are replayed with their content.
    const summaries = handoff(a, ['log', '--all', '--json']).json.versions.map((v: any) => v.summary);
    expect(summaries).toEqual(['later, clean', expect.stringMatching(/^\(purged/), 'clean start']);
    expect(handoff(a, ['log', '--all', '--json']).json.versions[2].version).toBe(v1);

    const refused = handoff(a, ['sync']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/still holds purged version .*git handoff sync --force origin$/m);
    expect(sync(a, ['--force']).forced).toBe(true);

    // b still has the old history and a new version of its own. While the remote refuses
    // b's push, b's history stays exactly as it was: the purge is applied with the merge.
    const hook = join(fleet.remote.dir, 'hooks', 'pre-receive');
    writeFileSync(hook, '#!/bin/sh\nexit 1\n');
    chmodSync(hook, 0o755);
    const bBefore = b.notesRef();
    expect(handoff(b, ['sync']).code).toBe(4);
    expect(b.notesRef()).toBe(bBefore);
    rmSync(hook);
    // Then sync applies the purge and keeps b's work.
    const sb = sync(b);
    expect(sb.purged_locally).toEqual([leaked]);
    sync(a);
    for (const r of fleet.all()) {
      const log = handoff(r, ['log', '--all', '--json']).json.versions.map((v: any) => v.summary);
      expect(log).toEqual(expect.arrayContaining(['b kept working', 'later, clean', 'clean start', expect.stringMatching(/^\(purged/)]));
      expect(log).toHaveLength(4);
      expect(r.git('log', '-p', 'refs/notes/handoff')).not.toContain(SECRET);
      r.git('reflog', 'expire', '--expire=now', '--all');
      r.git('gc', '-q', '--prune=now');
      expect(objectsWithSecret(r), `${r.name} still holds the secret`).toBe(0);
      r.fsck();
    }
    expect(new Set(fleet.all().map((r) => r.notesRef())).size).toBe(1);
    expect(fromB).toMatch(/^[0-9a-f]{40}$/);
    expect(v3).not.toBe(leaked);
  });
});

describe('purge: copies of the leaked note', () => {
  it('tombstones every copy of the note (git copies it on amend), whichever copy is named', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    // What `init` sets: amend and rebase copy the note, same blob, onto the new commit.
    repo.git('config', 'notes.rewriteRef', 'refs/notes/handoff');
    repo.git('config', 'notes.rewriteMode', 'overwrite');
    repo.git('config', 'handoff.secrets.allow', 'AKIA');
    const clean = writeVersion(repo, 'clean start');
    const secrets = ['AKIAQWERTYUIOPASDFGH', 'AKIAZXCVBNMLKJHGFDSA'];
    repo.commit('feat: one', { 'b.txt': 'b\n' });
    const leaked = writeVersion(repo, `deploy with key ${secrets[0]}`);
    repo.git('commit', '-q', '--amend', '-m', 'feat: one, amended');
    expect(repo.nativeNote()).toContain(secrets[0]);
    repo.commit('feat: two', { 'c.txt': 'c\n' });
    writeVersion(repo, `second key ${secrets[1]}`);
    repo.git('commit', '-q', '--amend', '-m', 'feat: two, amended');
    repo.git('config', '--unset', 'handoff.secrets.allow');

    // The version that wrote the secret is named: the copy on the amended commit goes too.
    expect(handoff(repo, ['purge', leaked]).code).toBe(0);
    expect(repo.git('log', '-p', 'refs/notes/handoff')).not.toContain(secrets[0]);
    // git's own copy on amend is no version of its own (docs/format.md): the version that
    // wrote the note is listed where the copy put it; purging it takes the copy too, and
    // the version's subject, which quoted the secret.
    const moved = handoff(repo, ['log', '--all', '--json']).json.versions[0];
    expect(moved.target).toBe(repo.head());
    const copy = moved.version;
    expect(repo.git('log', '-1', '--format=%s', copy)).toMatch(/^handoff [0-9a-f]{7} on main: second key/);
    const second = handoff(repo, ['purge', copy]);
    expect(second.code, second.stderr).toBe(0);

    const history = repo.git('log', '-p', 'refs/notes/handoff');
    for (const s of secrets) expect(history).not.toContain(s);
    expect(repo.nativeNote()).toMatch(/^summary: "\(purged/m);
    expect(repo.nativeNote('HEAD~1')).toMatch(/^summary: "\(purged/m);
    expect(handoff(repo, ['log', '--all', '--json']).json.versions.at(-1).version).toBe(clean);
    repo.git('reflog', 'expire', '--expire=now', '--all');
    repo.git('gc', '-q', '--prune=now');
    for (const s of secrets) expect(objectsWithSecret(repo, s), s).toBe(0);
    repo.fsck();
  });
});
