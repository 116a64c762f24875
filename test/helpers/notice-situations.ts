/**
 * The situations in which `git handoff show` prints a notice, each set up in real
 * repositories, for the tests that hold another surface (MCP, the session-start hook, the
 * relay prompt) to the same notices. `relay`: the version that will be shown asks for a relay.
 */
import { expect } from 'vitest';
import { TestRepo, tempDir } from './repo.js';
import { handoff } from './cli.js';
import { Fleet, sync, writeVersion, type FleetRepo } from './fleet.js';

export const STALE_LINE = /^warning: this handoff is stale: written \d+ days ago \(2026-01-01\); confirm with the user before acting on it$/;

const relayArgs = (relay: boolean) => (relay ? ['--relay'] : []);

/** A valid version ('the parser is half done'), then an invalid native note on a later commit `due`: skipped, stale and due. */
export function skippedStaleDue(relay = false): { repo: TestRepo; due: string } {
  const repo = TestRepo.init();
  repo.commit('feat: one', { 'a.txt': '1\n' });
  writeVersion(repo, 'the parser is half done', relayArgs(relay));
  const due = repo.commit('feat: two', { 'a.txt': '2\n' });
  repo.git('notes', '--ref=handoff', 'add', '-m', 'summary: [a, list]', due);
  return { repo, due };
}

/** A version on main ('on main'), and the repository on a new branch `feature` with none. */
export function onAnotherBranch(): TestRepo {
  const repo = TestRepo.init();
  repo.commit('feat: one', { 'a.txt': '1\n' });
  writeVersion(repo, 'on main');
  repo.git('checkout', '-q', '-b', 'feature');
  return repo;
}

/** Two clones wrote concurrently and synced: `repo` (b) shows a's later 'a on its own line'; its own `earlier` diverged. */
export function divergedSessions(relay = false): { repo: FleetRepo; earlier: string } {
  const fleet = new Fleet(2);
  const [a, b] = fleet.clones;
  a.commit('feat: a alone', { 'a.txt': 'a\n' });
  const t = fleet.clock + 3600;
  const later = handoff(a, ['write', '--json', ...relayArgs(relay), '--summary', 'a on its own line'], {
    env: { GIT_COMMITTER_DATE: `@${t} +0000`, GIT_AUTHOR_DATE: `@${t} +0000` },
  });
  expect(later.code, later.stderr).toBe(0);
  b.commit('feat: b alone', { 'b.txt': 'b\n' });
  const earlier = writeVersion(b, 'b on its own line');
  sync(a);
  sync(b);
  return { repo: b, earlier };
}

/** A version ('parser done') written at `before`, moved to `after` by an amend under notes.rewriteRef. */
export function movedByAmend(): { repo: TestRepo; before: string; after: string } {
  const repo = TestRepo.init();
  repo.commit('feat: start', { 'a.txt': 'a\n' });
  // a version before it, so that diff has two to compare (git's copy on amend moves a version, it makes none)
  writeVersion(repo, 'parser started');
  const before = repo.commit('feat: parser', { 'b.txt': 'b\n' });
  writeVersion(repo, 'parser done');
  repo.git('config', 'notes.rewriteRef', 'refs/notes/handoff');
  repo.git('config', 'notes.rewriteMode', 'overwrite');
  repo.git('commit', '-q', '--amend', '-m', 'feat: parser, amended');
  return { repo, before, after: repo.head() };
}

/** A clone (b, whose own version is 'b first') that fetched a remote history with 2 versions it lacks. */
export function remoteAhead(relay = false): FleetRepo {
  const fleet = new Fleet(2);
  const [a, b] = fleet.clones;
  writeVersion(b, 'b first', relayArgs(relay));
  writeVersion(a, 'a first');
  writeVersion(a, 'a second');
  sync(a);
  b.git('fetch', '-q', 'origin', '+refs/notes/handoff:refs/notes/remotes/origin/handoff');
  return b;
}

/** A fresh `git clone` of a repository with a version: no notes came with it. */
export function freshClone(): TestRepo {
  const origin = TestRepo.init();
  origin.commit('feat: one', { 'a.txt': '1\n' });
  writeVersion(origin, 'in the origin only');
  const dir = tempDir();
  const clone = new TestRepo(dir, origin.env);
  clone.git('clone', '-q', origin.dir, dir);
  return clone;
}
