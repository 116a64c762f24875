/**
 * Issue 25, reading the history: `diff` shows what a person wrote unless asked for the
 * bookkeeping, a change of session reads as one; `search` groups the same text carried
 * forward, exits 1 when nothing matched, and takes every date git's `--since` takes.
 */
import { describe, expect, it } from 'vitest';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';

function twoVersions(): TestRepo {
  const repo = TestRepo.init();
  repo.commit('feat: start', { 'a.txt': 'a\n' });
  expect(handoff(repo, ['write', '--summary', 'parser done', '--session', 'demo-1']).code).toBe(0);
  repo.commit('feat: quoting', { 'a.txt': 'b\n' });
  expect(handoff(repo, ['write', '--summary', 'parser and quoting done']).code).toBe(0);
  return repo;
}

describe('diff', () => {
  it('by default: what a person wrote, and the session change as a change', () => {
    const repo = twoVersions();
    const r = handoff(repo, ['diff']);
    expect(r.code, r.stderr).toBe(0);
    const body = r.stdout.split('\n').slice(1).join('\n');
    expect(body).toBe('session_id: demo-1 → (none)\nsummary:\n  - parser done\n  + parser and quoting done\n');
    const j = handoff(repo, ['diff', '--json']).json;
    expect(j.changes.map((c: any) => c.field)).toEqual(['session_id', 'summary']);
    expect(j.changes[0]).toEqual({ field: 'session_id', change: 'changed', old: 'demo-1', new: null });
  });

  it('--bookkeeping adds the fields the tool fills', () => {
    const repo = twoVersions();
    const r = handoff(repo, ['diff', '--bookkeeping']);
    expect(r.code, r.stderr).toBe(0);
    for (const f of ['summary:', 'date:', 'head:', 'head_tree:', 'recent_commits:']) expect(r.stdout).toContain(`\n${f}`);
    const fields = handoff(repo, ['diff', '--bookkeeping', '--json']).json.changes.map((c: any) => c.field);
    expect(fields).toEqual(expect.arrayContaining(['summary', 'date', 'head', 'head_tree', 'recent_commits']));
    expect(handoff(repo, ['diff', '-h']).stdout).toContain('--bookkeeping');
  });

  it('a version whose only change is bookkeeping says so', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    expect(handoff(repo, ['write', '--summary', 'parser done']).code).toBe(0);
    repo.commit('feat: more', { 'a.txt': 'b\n' });
    expect(handoff(repo, ['write', '--summary', 'parser done']).code).toBe(0);
    const r = handoff(repo, ['diff']);
    expect(r.stdout.split('\n')[1]).toBe('(no changes to what was written; only bookkeeping: see --bookkeeping)');
  });
});

describe('search', () => {
  function carried(): { repo: TestRepo; ids: string[] } {
    const repo = TestRepo.init();
    const ids: string[] = [];
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    ids.push(handoff(repo, ['write', '--summary', 'the parser reads quoted fields', '--json']).json.version);
    for (const step of ['tests', 'docs']) {
      repo.commit(`feat: ${step}`, { 'a.txt': `${step}\n` });
      ids.push(handoff(repo, ['write', '--next-step', `write the ${step}`, '--json']).json.version);
    }
    return { repo, ids: ids.reverse() };
  }

  it('the same text carried forward by several versions is one line: the newest, with the count and the oldest', () => {
    const { repo, ids } = carried();
    const r = handoff(repo, ['search', 'parser', '-n', '3']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^${ids[0].slice(0, 12)} .* main summary: the parser reads quoted fields \\(3 versions with this text; the oldest: ${ids[2].slice(0, 12)}\\)$`,
      ),
    );
    // the JSON keeps one result per version, newest first
    expect(handoff(repo, ['search', 'parser', '--json']).json.results.map((h: any) => h.version)).toEqual(ids);
  });

  it('no match exits 1, as grep does; with --json still ok: true and no results', () => {
    const { repo } = carried();
    const r = handoff(repo, ['search', 'nowhere']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe("no version matches 'nowhere' (3 searched)\n");
    const j = handoff(repo, ['search', 'nowhere', '--json']);
    expect(j.code).toBe(1);
    expect(j.json).toMatchObject({ ok: true, results: [] });
  });

  it('--since takes what git log --since takes', () => {
    const { repo } = carried();
    // the versions are dated 2026-01-01 by the test clock
    const at = (since: string) => handoff(repo, ['search', 'parser', '--since', since, '--json']);
    for (const since of ['yesterday', '2.weeks.ago', '3 days ago', 'last monday']) {
      const r = at(since);
      expect(r.code, `${since}: ${r.stderr}`).toBe(1);
      expect(r.json.results, since).toEqual([]);
    }
    for (const since of ['2025-12-31', '2025.12.31', 'Dec 31 2025', '13.months.ago', '400d']) {
      const r = at(since);
      expect(r.code, `${since}: ${r.stderr}`).toBe(0);
      expect(r.json.results, since).toHaveLength(3);
    }
    const bad = handoff(repo, ['search', 'parser', '--since', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      "git handoff: search: --since needs a date or an age as git log --since takes it (yesterday, 2.weeks.ago, 2026-01-31, 7d), not 'soon' (see 'git handoff search -h')\n",
    );
  });
});
