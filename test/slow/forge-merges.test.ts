/**
 * Squash and rebase merges done on a forge heal themselves. The "forge" is
 * another clone that merges the feature branch the way GitHub's buttons do (one squashed
 * commit with the branch's tree; the branch's commits replayed onto main) and pushes main,
 * with no notes rewriting at all. The developer then runs only `git pull`: the hooks `init`
 * installed carry the handoff onto the new commit, and `show` on main finds it.
 */
import { describe, expect, it } from 'vitest';
import { cliPath, handoff } from '../helpers/cli.js';
import { Fleet, type FleetRepo } from '../helpers/fleet.js';

/** Plain git with git-handoff on PATH, so the installed hooks run as on a user's machine. */
function gitWithHooks(repo: FleetRepo, ...args: string[]) {
  const r = repo.gitRaw(args, { env: { PATH: cliPath() } });
  expect(r.status, r.stderr).toBe(0);
  return r;
}

function developerWithFeature(fleet: Fleet): { dev: FleetRepo; forge: FleetRepo; version: string; summary: string } {
  const [dev, forge] = fleet.clones;
  expect(handoff(dev, ['init']).code).toBe(0);
  dev.git('checkout', '-q', '-b', 'feature');
  dev.commit('feat: first half', { 'f1.txt': 'one\n' });
  dev.commit('feat: second half', { 'f2.txt': 'two\n' });
  const summary = 'feature done; next: the docs';
  const w = handoff(dev, ['write', '--json', '--summary', summary]);
  expect(w.code, w.stderr).toBe(0);
  dev.git('push', '-q', 'origin', 'feature');
  dev.git('checkout', '-q', 'main');
  forge.git('fetch', '-q', 'origin');
  return { dev, forge, version: w.json.version, summary };
}

describe('a squash or rebase merge on the forge, then git pull', () => {
  it('squash merge: the handoff follows onto the squashed commit; show on main finds it', () => {
    const fleet = new Fleet(2);
    const { dev, forge, summary } = developerWithFeature(fleet);
    forge.git('merge', '-q', '--squash', 'origin/feature');
    forge.git('commit', '-q', '-m', 'Feature (#1)');
    forge.git('push', '-q', 'origin', 'main');
    const squashed = forge.head();

    const pull = gitWithHooks(dev, 'pull', '-q', 'origin', 'main');
    expect(dev.head()).toBe(squashed);
    expect(pull.stderr).toContain(`git-handoff: the handoff of`);
    expect(pull.stderr).toContain(`now sits on ${squashed.slice(0, 7)} (same tree: a squash merge`);
    expect(dev.nativeNote(squashed)).toContain(summary);
    const show = handoff(dev, ['show', '--json']);
    expect(show.code, show.stderr).toBe(0);
    expect(show.json.target).toBe(squashed);
    expect(show.json.handoff.summary).toBe(summary);
    expect(handoff(dev, ['show']).stdout).not.toMatch(/no handoff on branch main/);
    dev.fsck();
  });

  it('rebase merge: each replayed commit has the same patch; the handoff follows onto the replayed tip', () => {
    const fleet = new Fleet(2);
    const { dev, forge, summary } = developerWithFeature(fleet);
    // main moved on meanwhile, so the forge replays the branch onto new parents.
    forge.commit('fix: something else on main', { 'other.txt': 'x\n' });
    forge.git('push', '-q', 'origin', 'main');
    forge.git('checkout', '-q', '-b', 'replay', 'origin/feature');
    forge.git('rebase', '-q', 'main');
    forge.git('checkout', '-q', 'main');
    forge.git('merge', '-q', '--ff-only', 'replay');
    forge.git('push', '-q', 'origin', 'main');
    const tip = forge.head();

    const pull = gitWithHooks(dev, 'pull', '-q', '--no-rebase', 'origin', 'main');
    expect(dev.head()).toBe(tip);
    expect(pull.stderr).toContain(`now sits on ${tip.slice(0, 7)} (same patch: a rebase merge`);
    const show = handoff(dev, ['show', '--json']);
    expect(show.json.target).toBe(tip);
    expect(show.json.handoff.summary).toBe(summary);
    dev.fsck();
  });

  it('git pull --rebase brings the squash: the handoff follows too (post-checkout)', () => {
    const fleet = new Fleet(2);
    const { dev, forge, summary } = developerWithFeature(fleet);
    forge.git('merge', '-q', '--squash', 'origin/feature');
    forge.git('commit', '-q', '-m', 'Feature (#1)');
    forge.git('push', '-q', 'origin', 'main');
    gitWithHooks(dev, 'pull', '-q', '--rebase', 'origin', 'main');
    const show = handoff(dev, ['show', '--json']);
    expect(show.json.target).toBe(forge.head());
    expect(show.json.handoff.summary).toBe(summary);
  });

  it('git pull --rebase over a local commit (post-rewrite): the handoff follows onto the squashed commit', () => {
    const fleet = new Fleet(2);
    const { dev, forge, summary } = developerWithFeature(fleet);
    dev.commit('feat: local work on main, not pushed yet', { 'local.txt': 'l\n' });
    forge.git('merge', '-q', '--squash', 'origin/feature');
    forge.git('commit', '-q', '-m', 'Feature (#1)');
    forge.git('push', '-q', 'origin', 'main');
    const squashed = forge.head();
    const pull = gitWithHooks(dev, 'pull', '-q', '--rebase', 'origin', 'main');
    expect(pull.stderr).toContain(`now sits on ${squashed.slice(0, 7)} (same tree: a squash merge`);
    expect(dev.nativeNote(squashed)).toContain(summary);
    expect(dev.git('rev-parse', 'HEAD~1').trim()).toBe(squashed);
    dev.fsck();
  });

  it('an ordinary pull with nothing of ours to carry writes nothing', () => {
    const fleet = new Fleet(2);
    const [dev, other] = fleet.clones;
    expect(handoff(dev, ['init']).code).toBe(0);
    dev.commit('feat: mine', { 'm.txt': 'm\n' });
    expect(handoff(dev, ['write', '--summary', 'mine']).code).toBe(0);
    dev.git('push', '-q', 'origin', 'main');
    other.git('pull', '-q', 'origin', 'main');
    other.commit('feat: theirs', { 't.txt': 't\n' });
    other.git('push', '-q', 'origin', 'main');
    const before = dev.notesRef();
    const pull = gitWithHooks(dev, 'pull', '-q', 'origin', 'main');
    expect(pull.stderr).not.toContain('git-handoff');
    expect(dev.notesRef()).toBe(before);
  });
});
