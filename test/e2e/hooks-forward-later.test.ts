/**
 * A tracked core.hooksPath folder (`.githooks`) that gains a hook after `git handoff init`:
 * a teammate commits it and a pull brings it. Every hook git can run must then run from it,
 * including the ones forwarded only while the folder has them (their mere presence changes
 * what git does); one the folder loses stops being forwarded. doctor reports a gap, --fix
 * mends it, uninstall leaves nothing of ours behind.
 */
import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { cliPath, handoff } from '../helpers/cli.js';
import { gitWithHooks, snapshot } from '../helpers/hooks.js';
import { FORWARDED_HOOKS, FORWARDED_IF_PRESENT } from '../../src/app/install/git-hooks/forwarders.js';

/** Every hook githooks(5) names that git looks up in the hooks folder, and the ones forwarded only while present: the forwarders' own lists. */
const ALWAYS = FORWARDED_HOOKS;
const IF_PRESENT = FORWARDED_IF_PRESENT;
const EVERY_HOOK = [...ALWAYS, ...IF_PRESENT];

const teamHook = (name: string) => `#!/bin/sh\necho ${name} >>"\${HOOK_LOG:-/dev/null}"\n`;

/** The team's repository (with a tracked `.githooks`) and a clone of it where init ran. */
function setup(): { team: TestRepo; mine: TestRepo; log: string; calls: string } {
  const team = TestRepo.init();
  team.write('.githooks/commit-msg', '#!/bin/sh\nexit 0\n');
  chmodSync(join(team.dir, '.githooks/commit-msg'), 0o755);
  team.git('add', '.githooks');
  team.commit('chore: team hooks');
  const mine = new TestRepo(tempDir(), team.env);
  team.git('clone', '-q', team.dir, mine.dir);
  mine.git('config', 'core.hooksPath', '.githooks');
  expect(handoff(mine, ['init']).code).toBe(0);
  const log = join(tempDir(), 'hooks.log');
  writeFileSync(log, '');
  return { team, mine, log, calls: join(tempDir(), 'calls.log') };
}

/** A PATH whose git-handoff is the packed CLI, with each call it gets written to `calls`. */
function countingPath(calls: string): string {
  const bin = tempDir('handoff-counting-');
  const real = cliPath().split(':')[0];
  writeFileSync(join(bin, 'git-handoff'), `#!/bin/sh\necho "$*" >>'${calls}'\nexec '${real}/git-handoff' "$@"\n`, { mode: 0o755 });
  return `${bin}:${cliPath()}`;
}

function addTeamHooks(team: TestRepo, names: string[], message: string): void {
  for (const h of names) {
    team.write(`.githooks/${h}`, teamHook(h));
    chmodSync(join(team.dir, '.githooks', h), 0o755);
  }
  team.git('add', '.githooks');
  team.commit(message);
}

/** Runs each hook as git finds it (`git hook run`), our own part switched off; the names that ran. */
function ran(repo: TestRepo, log: string, names: string[]): string[] {
  writeFileSync(log, '');
  for (const h of names) gitWithHooks(repo, ['hook', 'run', h], { env: { HOOK_LOG: log, HANDOFF_SKIP: '1' } });
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

const ours = (repo: TestRepo) => readdirSync(join(repo.dir, '.git/handoff/hooks')).sort();

describe('a hook the tracked hooks folder gains after init', () => {
  it('runs, for every hook git can run, once a pull brings it (no handoff written yet); a checkout with nothing new starts no Node for it', () => {
    const { team, mine, log, calls } = setup();
    expect(ran(mine, log, IF_PRESENT)).toEqual([]);
    addTeamHooks(
      team,
      EVERY_HOOK.filter((h) => h !== 'commit-msg'),
      'chore: every hook',
    );
    const before = snapshot(join(team.dir, '.githooks'));

    const pull = gitWithHooks(mine, ['pull', '-q', '--no-rebase'], { env: { HOOK_LOG: log, PATH: countingPath(calls) } });
    expect(pull.code).toBe(0);
    expect(pull.stderr).toContain(
      `git-handoff: create forwarders in .git/handoff/hooks for ${IF_PRESENT.join(', ')}: each runs the hook of its name in .githooks`,
    );
    expect(
      ran(
        mine,
        log,
        EVERY_HOOK.filter((h) => h !== 'commit-msg'),
      ),
    ).toEqual(EVERY_HOOK.filter((h) => h !== 'commit-msg'));
    expect(snapshot(join(mine.dir, '.githooks'))).toEqual(before);
    expect(mine.git('status', '--porcelain')).toBe('');

    // git itself runs them: post-index-change on `git add`, reference-transaction on a commit.
    writeFileSync(log, '');
    mine.write('a.txt', 'a\n');
    gitWithHooks(mine, ['add', 'a.txt'], { env: { HOOK_LOG: log, HANDOFF_SKIP: '1' } });
    expect(readFileSync(log, 'utf8').split('\n')).toContain('post-index-change');
    writeFileSync(log, '');
    gitWithHooks(mine, ['commit', '-q', '-m', 'feat: a'], { env: { HOOK_LOG: log, HANDOFF_SKIP: '1' } });
    expect(readFileSync(log, 'utf8').split('\n')).toContain('reference-transaction');

    // In step now: the next checkouts ask nothing of git-handoff's forwarders command.
    writeFileSync(calls, '');
    gitWithHooks(mine, ['checkout', '-q', '-b', 'other'], { env: { HOOK_LOG: log, PATH: countingPath(calls) } });
    gitWithHooks(mine, ['checkout', '-q', 'main'], { env: { HOOK_LOG: log, PATH: countingPath(calls) } });
    expect(readFileSync(calls, 'utf8')).not.toContain('forwarders');
    expect(handoff(mine, ['doctor', '--json']).json.healthy).toBe(true);

    // Uninstall takes the forwarders the pull added too, and leaves the team's folder.
    const un = handoff(mine, ['uninstall']);
    expect(un.code).toBe(0);
    expect(existsSync(join(mine.dir, '.git/handoff'))).toBe(false);
    expect(mine.git('config', '--get-all', 'core.hooksPath').trim()).toBe('.githooks');
    expect(snapshot(join(mine.dir, '.githooks'))).toEqual(before);
  });

  it('one added by itself and one taken away: the forwarders follow each pull (a rebase pull too)', () => {
    const { team, mine, log } = setup();
    addTeamHooks(team, ['reference-transaction'], 'chore: reference-transaction');
    const pull = gitWithHooks(mine, ['pull', '-q', '--rebase'], { env: { HOOK_LOG: log } });
    expect(pull.code).toBe(0);
    expect(pull.stderr).toContain('git-handoff: create .git/handoff/hooks/reference-transaction: .githooks has a reference-transaction hook');
    expect(ran(mine, log, ['reference-transaction'])).toEqual(['reference-transaction']);

    // A local commit first, so the next pull rebases (post-checkout, not post-merge).
    mine.commit('feat: mine');
    team.git('rm', '-q', '.githooks/reference-transaction');
    addTeamHooks(team, ['push-to-checkout'], 'chore: push-to-checkout instead');
    const again = gitWithHooks(mine, ['pull', '-q', '--rebase'], { env: { HOOK_LOG: log } });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('git-handoff: remove .git/handoff/hooks/reference-transaction: .githooks has no reference-transaction hook any more');
    expect(ours(mine)).toContain('push-to-checkout');
    expect(ours(mine)).not.toContain('reference-transaction');
    expect(ran(mine, log, ['push-to-checkout'])).toEqual(['push-to-checkout']);
    expect(gitWithHooks(mine, ['hook', 'run', 'reference-transaction'], { env: { HOOK_LOG: log } }).code).not.toBe(0);
  });

  it('doctor reports a hook the folder gained or lost without a checkout, and --fix mends both', () => {
    const { mine, log } = setup();
    addTeamHooks(mine, ['post-index-change'], 'chore: post-index-change');
    const d = handoff(mine, ['doctor', '--json']);
    expect(d.code).toBe(1);
    expect(d.json.findings.map((f: any) => f.message)).toEqual([
      expect.stringContaining('create .git/handoff/hooks/post-index-change: .githooks has a post-index-change hook'),
    ]);
    expect(handoff(mine, ['doctor', '--fix']).code).toBe(0);
    expect(ran(mine, log, ['post-index-change'])).toEqual(['post-index-change']);
    expect(handoff(mine, ['doctor', '--json']).json.healthy).toBe(true);

    rmSync(join(mine.dir, '.githooks/post-index-change'));
    const gone = handoff(mine, ['doctor', '--json']);
    expect(gone.json.findings.map((f: any) => f.message)).toEqual([expect.stringContaining('remove .git/handoff/hooks/post-index-change')]);
    expect(handoff(mine, ['doctor', '--fix']).code).toBe(0);
    expect(ours(mine)).not.toContain('post-index-change');
    expect(handoff(mine, ['doctor', '--json']).json.healthy).toBe(true);
  });
});
