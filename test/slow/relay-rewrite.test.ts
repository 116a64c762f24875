/**
 * A relay request survives a rewrite that only moved the note. `write --relay`, then an
 * amend or a rebase, in real repositories: git copies the note itself (`notes.rewriteRef`,
 * as `init` sets it, with and without the hooks), or the post-rewrite hook does (no
 * rewriteRef). What `relay` finds to relay (relayCandidate, on the real repository) is the
 * rewritten commit's version, asking as the version it was moved from; a `write` after the
 * rewrite ends the request. The relay that runs, once acked, is not asked again:
 * test/slow/relay-notices.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { TestRepo, isolatedEnv, tempDir } from '../helpers/repo.js';
import { cliPath, handoff } from '../helpers/cli.js';
import { commitWithHooks, gitWithHooks } from '../helpers/hooks.js';
import { withRepo } from '../../src/app/repository.js';
import { relayCandidate } from '../../src/app/relay.js';
import { ackRelay } from '../../src/app/ack.js';
import { RelayStore } from '../../src/state/relay-store.js';
import { relayIdFor } from '../../src/core/relay.js';

/** Who moves the note on a rewrite. */
type Mover = 'git' | 'git, no hooks' | 'hook';

function repoFor(mover: Mover): { repo: TestRepo; git: (args: string[]) => void } {
  const repo = TestRepo.init();
  repo.commit('chore: start', { 'README.md': 'start\n' });
  if (mover === 'git, no hooks') {
    repo.git('config', 'notes.rewriteRef', 'refs/notes/handoff');
    repo.git('config', 'notes.rewriteMode', 'overwrite');
    return { repo, git: (args) => void repo.git(...args) };
  }
  expect(handoff(repo, ['init']).code).toBe(0);
  if (mover === 'hook') repo.git('config', '--unset-all', 'notes.rewriteRef');
  return {
    repo,
    git: (args) => {
      const r = gitWithHooks(repo, args, { env: { GIT_SEQUENCE_EDITOR: 'true', GIT_EDITOR: 'true' } });
      expect(r.code, r.stderr).toBe(0);
    },
  };
}

function writeRelay(repo: TestRepo, summary = 'half way: relay me'): string {
  const w = handoff(repo, ['write', '--relay', '--json', '--summary', summary]);
  expect(w.code, w.stderr).toBe(0);
  expect(w.json.relay).toBe('requested');
  return w.json.version;
}

/** Amend HEAD, or rebase the branch `topic` (whose head carries the note) onto a moved main. */
function rewrite(repo: TestRepo, git: (args: string[]) => void, how: 'amend' | 'rebase'): void {
  if (how === 'amend') git(['commit', '-q', '--amend', '--allow-empty', '-m', 'feat: one, amended']);
  else {
    repo.git('checkout', '-q', 'main');
    repo.commit('feat: main moves', { 'm.txt': 'm\n' });
    repo.git('checkout', '-q', 'topic');
    git(['rebase', '-q', 'main']);
  }
}

function setUp(mover: Mover, how: 'amend' | 'rebase') {
  const { repo, git } = repoFor(mover);
  if (how === 'rebase') repo.git('checkout', '-q', '-b', 'topic');
  const before = mover === 'git, no hooks' ? repo.commit('feat: one', { 'a.txt': 'a\n' }) : commitWithHooks(repo, 'feat: one', { 'a.txt': 'a\n' }).head;
  const asking = writeRelay(repo);
  rewrite(repo, git, how);
  expect(repo.head()).not.toBe(before);
  return { repo, asking, before };
}

// relay checks for tmux; nothing here starts a session, but a private server is stopped anyway
const env = { TMUX_TMPDIR: tempDir('handoff-tmux-') };
afterAll(() => {
  spawnSync('tmux', ['kill-server'], { env: { ...isolatedEnv(), PATH: cliPath(), ...env }, timeout: 10_000 });
});

const find = (repo: TestRepo) => withRepo(repo.dir, (r) => relayCandidate(r));

describe('a relay request survives a rewrite that moved its note', () => {
  for (const mover of ['git', 'git, no hooks', 'hook'] as const)
    for (const how of ['amend', 'rebase'] as const)
      it(`${how}, the note moved by ${mover}: the rewritten commit's version still asks`, async () => {
        const { repo, asking } = setUp(mover, how);
        const c = await find(repo);
        if (typeof c === 'string') throw new Error(`relay finds nothing: ${c}`);
        expect(c.version.target).toBe(repo.head());
        expect(c.version.handoff.summary).toBe('half way: relay me');
        if (mover === 'hook') {
          // our hook writes a version of its own on the rewritten commit
          expect(c.version.id).not.toBe(asking);
          expect(c.request).toEqual({ reason: 'requested', asking, chain: [c.version.id, asking] });
        } else {
          // git's own copy moves the version (docs/format.md, lineage): the same version, asking itself
          expect(c.version.id).toBe(asking);
          expect(c.request).toEqual({ reason: 'requested', asking, chain: [asking] });
        }
        repo.fsck();
      });

  it('two amends in a row: still the first request', async () => {
    const { repo, asking } = setUp('git', 'amend');
    commitWithHooks(repo, 'feat: one, amended again', {}, { args: ['--amend'] });
    const c = await find(repo);
    if (typeof c === 'string') throw new Error(c);
    expect(c.version.target).toBe(repo.head());
    expect(c.request.asking).toBe(asking);
    // git's copy moved the same version twice (docs/format.md, lineage): one version, no chain
    expect(c.version.id).toBe(asking);
    expect(c.request.chain).toEqual([asking]);
  });

  for (const mover of ['git', 'hook'] as const)
    it(`a write after the rewrite (${mover}) ends the request, as a write without --relay does`, async () => {
      const { repo } = setUp(mover, 'amend');
      expect(handoff(repo, ['write', '--summary', 'carried on, no relay']).code).toBe(0);
      expect(await find(repo)).toMatch(/^the latest version [0-9a-f]{12} does not ask for a relay$/);
    });

  it('a version of another branch between the request and the move does not end it', async () => {
    const { repo, git } = repoFor('git');
    commitWithHooks(repo, 'feat: one', { 'a.txt': 'a\n' });
    const asking = writeRelay(repo);
    repo.git('checkout', '-q', '-b', 'side');
    commitWithHooks(repo, 'feat: side', { 's.txt': 's\n' });
    expect(handoff(repo, ['write', '--summary', 'on side']).code).toBe(0);
    repo.git('checkout', '-q', 'main');
    rewrite(repo, git, 'amend');
    const c = await find(repo);
    if (typeof c === 'string') throw new Error(c);
    expect(c.version.target).toBe(repo.head());
    expect(c.request.asking).toBe(asking);
  });

  for (const which of ['the version that asked', 'the move'] as const)
    it(`a purge of ${which} purges the note everywhere it was moved: nothing is left to relay`, async () => {
      const { repo, asking } = setUp('git', 'amend');
      const c = await find(repo);
      if (typeof c === 'string') throw new Error(c);
      const p = handoff(repo, ['purge', '--json', which === 'the move' ? c.version.id : asking]);
      expect(p.code, p.stderr).toBe(0);
      expect(await find(repo)).toBe('no handoff on this branch');
    });

  it('a rewrite of a version that did not ask asks nothing', async () => {
    const { repo, git } = repoFor('git');
    commitWithHooks(repo, 'feat: one', { 'a.txt': 'a\n' });
    expect(handoff(repo, ['write', '--summary', 'no relay']).code).toBe(0);
    rewrite(repo, git, 'amend');
    expect(await find(repo)).toMatch(/does not ask for a relay$/);
  });

  it("an ack for the version before the move is not stale: the prompt told the moved note's handoff", async () => {
    const r0 = TestRepo.init();
    r0.commit('chore: start', { 'README.md': 'start\n' });
    r0.git('config', 'notes.rewriteRef', 'refs/notes/handoff');
    r0.commit('feat: one', { 'a.txt': 'a\n' });
    const asking = writeRelay(r0);
    // a relay of that version is waiting for its new session's ack when the user amends
    const relayId = relayIdFor(asking, 1);
    const store = new RelayStore(r0.gitDir());
    store.writeRecord({
      version: asking,
      branch: 'main',
      attempts: [
        {
          relay_id: relayId,
          status: 'waiting',
          reason: null,
          session: 's-1',
          prompt: '/dev/null',
          pid: 1,
          started_at: '2026-01-01T00:00:00Z',
          acked_at: null,
          finished_at: null,
        },
      ],
    });
    r0.git('commit', '-q', '--amend', '--allow-empty', '-m', 'feat: one, amended');
    const ack = await withRepo(r0.dir, (r) => ackRelay(r, { relayId, status: 'accepted', reason: null }));
    expect(ack).toMatchObject({ relayId, version: asking, status: 'accepted' });
    // a real write since is newer: stale, as before
    const asking2 = writeRelay(r0, 'further on: relay me');
    const relayId2 = relayIdFor(asking2, 1);
    store.writeRecord({
      version: asking2,
      branch: 'main',
      attempts: [
        {
          relay_id: relayId2,
          status: 'waiting',
          reason: null,
          session: 's-2',
          prompt: '/dev/null',
          pid: 1,
          started_at: '2026-01-01T00:00:01Z',
          acked_at: null,
          finished_at: null,
        },
      ],
    });
    expect(handoff(r0, ['write', '--summary', 'newer']).code).toBe(0);
    await expect(withRepo(r0.dir, (r) => ackRelay(r, { relayId: relayId2, status: 'accepted', reason: null }))).rejects.toThrow(/the relay prompt is stale/);
  });

  it("a relay of the version before the move: one that died waiting is settled under that version's lock; a live one keeps the moved version busy", async () => {
    const repo = TestRepo.init();
    repo.commit('chore: start', { 'README.md': 'start\n' });
    repo.git('config', 'notes.rewriteRef', 'refs/notes/handoff');
    repo.commit('feat: one', { 'a.txt': 'a\n' });
    const asking = writeRelay(repo);
    const relayId = relayIdFor(asking, 1);
    const store = new RelayStore(repo.gitDir());
    store.writeRecord({
      version: asking,
      branch: 'main',
      attempts: [
        {
          relay_id: relayId,
          status: 'waiting',
          reason: null,
          session: 's-1',
          prompt: '/dev/null',
          pid: 1,
          started_at: '2026-01-01T00:00:00Z',
          acked_at: null,
          finished_at: null,
        },
      ],
    });
    repo.git('commit', '-q', '--amend', '--allow-empty', '-m', 'feat: one, amended');
    const relay = () => handoff(repo, ['relay', '--once', '--json', '--timeout', '5', '--agent-cmd', 'false'], { env });
    // its relay process is alive (it holds the version's lock): the moved version waits for it
    expect(store.tryLock(asking).acquired).toBe(true);
    try {
      expect(relay().json).toMatchObject({ ok: true, status: 'busy', reason: expect.stringContaining(asking.slice(0, 12)) });
    } finally {
      store.unlock(asking);
    }
    expect(store.readRecord(asking)!.attempts[0].status).toBe('waiting');
    // it died: its attempt is settled as interrupted, and the request waits for --retry as any interrupted relay
    expect(relay().json).toMatchObject({ ok: true, status: 'skipped', reason: expect.stringMatching(new RegExp(`^relay ${relayId} interrupted .*--retry`)) });
    expect(store.readRecord(asking)!.attempts[0]).toMatchObject({ status: 'interrupted', reason: 'the relay process stopped while waiting' });
  });
});
