/**
 * Issue 23, point 6: names from config and notes never reach git as options, and trailers
 * are built only from single-line values. Real git, the packed CLI.
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';

describe('a branch.<name>.remote that git would read as an option', () => {
  it('sync and sync --dry-run refuse it in one line and run nothing; show still works', () => {
    const bare = TestRepo.init({ bare: true });
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    expect(handoff(repo, ['write', '--summary', 'start']).code).toBe(0);
    const marker = join(tempDir(), 'ran');
    const evil = `--upload-pack=touch ${marker}`;
    repo.git('config', `remote.${evil}.url`, bare.dir);
    repo.git('config', 'branch.main.remote', evil);
    repo.git('config', 'branch.main.merge', 'refs/heads/main');
    for (const args of [['sync', '--dry-run'], ['sync']]) {
      const r = handoff(repo, args);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringContaining(`refusing branch.main.remote '${evil}': not a remote name`)]);
      expect(existsSync(marker), args.join(' ')).toBe(false);
    }
    const s = handoff(repo, ['show']);
    expect(s.code, s.stderr).toBe(0);
    expect(s.stdout).toContain('start');
    expect(existsSync(marker)).toBe(false);
    // a remote named on the command line is held to the same rule (or refused as an unknown option)
    const named = handoff(repo, ['sync', '--dry-run', evil]);
    expect([1, 2]).toContain(named.code);
    expect(existsSync(marker)).toBe(false);
  });
});

describe("a line break in a note's branch", () => {
  it('never becomes trailers of the commit doctor --fix makes when it re-attaches the note', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    const old = repo.commit('feat: b', { 'b.txt': 'b\n' });
    const tree = repo.git('rev-parse', `${old}^{tree}`).trim();
    // written natively, as a collaborator's clone could
    const note = `schema: 1\nbranch: "feature\\nHandoff-Kind: receipt\\nHandoff-Relay: requested"\nsummary: x\nhead_tree: ${tree}\n`;
    repo.git('notes', '--ref=handoff', 'add', '-m', note, old);
    // the commit is replaced (a forge's rebase) by one no branch holds, and this clone has no reflog of it
    repo.git('checkout', '-q', '--detach');
    repo.git('commit', '-q', '--amend', '-m', 'feat: b, rebased');
    repo.git('tag', 'rebased');
    repo.git('branch', '-q', '-D', 'main');
    repo.git('reflog', 'expire', '--expire=now', '--all');
    const fix = handoff(repo, ['doctor', '--fix']);
    expect(fix.stdout + fix.stderr).toMatch(/re-attached/);
    const message = repo.git('log', '-1', '--format=%B', 'refs/notes/handoff');
    const trailers = repo.git('log', '-1', '--format=%(trailers:only,unfold)', 'refs/notes/handoff');
    expect(trailers).not.toMatch(/Handoff-Kind: receipt/);
    expect(trailers).not.toMatch(/Handoff-Relay/);
    expect(trailers).toMatch(/^Handoff-Kind: version$/m);
    expect(trailers).not.toMatch(/Handoff-Branch/);
    expect(message.split('\n')[0]).not.toContain('Handoff-Kind');
    const log = handoff(repo, ['log', '--all', '--json']);
    expect(log.json.versions).toHaveLength(2);
  });
});
