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

/**
 * Issue 22, "Done when": forge-style squash and rebase merges of a branch with a handoff per
 * commit (the first with a clock an hour fast, so only lineage tells the newest), merged by
 * plain git in another clone, pushed, the branch deleted on the remote; the developer fetches
 * with --prune and deletes the branch too. With the hooks: `git pull` lands the newest
 * handoff on main's new commit as a version of main. Without them (`core.hooksPath` off for
 * the pull): `doctor --fix` does it and says what it re-attached and to which branch. Either
 * way `show` on main gives the newest handoff with no "a handoff is due".
 */
function featureWithHandoffs(fleet: Fleet): { dev: FleetRepo; forge: FleetRepo; newest: string; summary: string } {
  const [dev, forge] = fleet.clones;
  expect(handoff(dev, ['init']).code).toBe(0);
  dev.git('checkout', '-q', '-b', 'feature');
  dev.commit('feat: first half', { 'f1.txt': 'one\n' });
  const fast = { GIT_COMMITTER_DATE: `@${fleet.clock + 7200} +0000`, GIT_AUTHOR_DATE: `@${fleet.clock + 7200} +0000` };
  expect(handoff(dev, ['write', '--summary', 'feature: half way (clock fast)'], { env: fast }).code).toBe(0);
  dev.commit('feat: second half', { 'f2.txt': 'two\n' });
  const summary = 'feature done; next: the docs';
  const w = handoff(dev, ['write', '--json', '--summary', summary]);
  expect(w.code, w.stderr).toBe(0);
  dev.git('push', '-q', 'origin', 'feature');
  dev.git('checkout', '-q', 'main');
  forge.git('fetch', '-q', 'origin');
  return { dev, forge, newest: w.json.version, summary };
}

/** The forge: a squash commit, or the branch's commits replayed onto main (which moved meanwhile); the branch deleted. */
function forgeMerge(forge: FleetRepo, how: 'squash' | 'rebase'): string {
  if (how === 'squash') {
    forge.git('merge', '-q', '--squash', 'origin/feature');
    forge.git('commit', '-q', '-m', 'Feature (#1)');
  } else {
    forge.commit('fix: something else on main', { 'other.txt': 'x\n' });
    forge.git('checkout', '-q', '-b', 'replay', 'origin/feature');
    forge.git('rebase', '-q', 'main');
    forge.git('checkout', '-q', 'main');
    forge.git('merge', '-q', '--ff-only', 'replay');
  }
  forge.git('push', '-q', 'origin', 'main');
  forge.git('push', '-q', 'origin', '--delete', 'feature');
  return forge.head();
}

function expectNewestOnMain(dev: FleetRepo, newest: string, summary: string): void {
  const show = handoff(dev, ['show', '--json']);
  expect(show.code, show.stderr).toBe(0);
  expect(show.json).toMatchObject({ target: dev.head(), due: false, diverged: false });
  expect(show.json.handoff.summary).toBe(summary);
  expect(show.json.continues, 'the landed version continues the newest handoff of the branch').toContain(newest);
  const text = handoff(dev, ['show']);
  expect(text.stdout + text.stderr).not.toMatch(/a handoff is due|no handoff on branch main/);
  expect(dev.git('log', '-1', '--format=%B', 'refs/notes/handoff')).toContain('Handoff-Branch: main');
  const rows = handoff(dev, ['log', '--json']).json.versions;
  expect(rows[0].version, "log's first row").toBe(show.json.version);
  expect(handoff(dev, ['doctor']).code, 'nothing left for doctor').toBe(0);
  dev.fsck();
}

describe('forge-style merges of a branch with a handoff per commit, the branch deleted', () => {
  for (const how of ['squash', 'rebase'] as const) {
    it(`${how} merge, pulled with the hooks: the newest handoff lands on main's new commit as a version of main`, () => {
      const fleet = new Fleet(2);
      const { dev, forge, newest, summary } = featureWithHandoffs(fleet);
      const tip = forgeMerge(forge, how);
      const pull = gitWithHooks(dev, 'pull', '-q', '--no-rebase', 'origin', 'main');
      expect(dev.head()).toBe(tip);
      expect(pull.stderr).toContain(`now sits on ${tip.slice(0, 7)}`);
      dev.git('fetch', '-q', '--prune', 'origin');
      dev.git('branch', '-q', '-D', 'feature');
      expectNewestOnMain(dev, newest, summary);
    });

    it(`${how} merge, pulled without hooks, then doctor --fix: it says what it re-attached and to which branch`, () => {
      const fleet = new Fleet(2);
      const { dev, forge, newest, summary } = featureWithHandoffs(fleet);
      const tip = forgeMerge(forge, how);
      dev.git('-c', 'core.hooksPath=/dev/null', 'pull', '-q', '--no-rebase', 'origin', 'main');
      dev.git('fetch', '-q', '--prune', 'origin');
      dev.git('branch', '-q', '-D', 'feature');
      expect(dev.head()).toBe(tip);
      expect(handoff(dev, ['show', '--json']).json.target, 'before doctor: main has no handoff of its own').not.toBe(tip);

      const check = handoff(dev, ['doctor']);
      expect(check.code, check.stdout).toBe(1);
      const fix = handoff(dev, ['doctor', '--fix', '--json']);
      expect(fix.code, fix.stdout).toBe(0);
      const fixed = fix.json.findings.filter((f: any) => f.kind === 'orphan' && f.fixed);
      expect(fixed.length, JSON.stringify(fix.json.findings)).toBeGreaterThanOrEqual(1);
      for (const f of fixed) expect(f).toMatchObject({ branch: 'main', level: 'fixed' });
      const onTip = fixed.filter((f: any) => f.to === tip);
      expect(onTip, 'one re-attached onto the new tip').toHaveLength(1);
      expect(onTip[0].message).toContain(`was re-attached to ${tip.slice(0, 7)} on main, which has the same ${how === 'squash' ? 'tree' : 'patch-id'}`);
      expectNewestOnMain(dev, newest, summary);
    });
  }
});
