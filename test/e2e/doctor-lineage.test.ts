/**
 * Issue 22: versions written before lineage keep working, their order falling back to the
 * old rule, and `doctor` says so once: one line (a note, still healthy) with their count,
 * only when such versions exist.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { handoff } from '../helpers/cli.js';
import { TestRepo } from '../helpers/repo.js';
import { gitWithHooks } from '../helpers/hooks.js';

const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;

/** Two versions as a writer before lineage made them: our trailers, no Handoff-Continues. */
function olderHistory(repo: TestRepo): void {
  const targets = [repo.commit('feat: one', { 'a.txt': '1\n' }), repo.commit('feat: two', { 'a.txt': '2\n' })];
  let n = '';
  targets.forEach((t, i) => {
    n += `commit refs/notes/handoff\ncommitter T <t@example.com> ${1767225600 + 100 + i} +0000\n`;
    n += data(`handoff ${t.slice(0, 7)} on main: version ${i}\n\nHandoff-Kind: version\nHandoff-Target: ${t}\nHandoff-Branch: main\n`);
    n += `N inline ${t}\n${data(`schema: 1\nsession_id: old-${i}\nstatus: active\nsummary: written before lineage ${i}\nbranch: main\n`)}\n`;
  });
  const r = spawnSync('git', ['fast-import', '--quiet'], { cwd: repo.dir, input: n, env: repo.tick() });
  expect(r.status, String(r.stderr)).toBe(0);
}

const lineageLines = (out: string) => out.split('\n').filter((l) => l.includes('before lineage'));

describe('doctor and versions written before lineage', () => {
  it('says once how many there are, as a note; the newest still shows; a history with lineage says nothing', () => {
    const repo = TestRepo.init();
    olderHistory(repo);
    expect(handoff(repo, ['show', '--json']).json.handoff.summary).toBe('written before lineage 1');
    // A version written now records its lineage; the two older ones still have none.
    expect(handoff(repo, ['write', '--summary', 'with lineage']).code).toBe(0);

    const text = handoff(repo, ['doctor']);
    const lines = lineageLines(text.stdout + text.stderr);
    expect(lines, text.stdout).toHaveLength(1);
    expect(lines[0]).toMatch(/^note: 2 versions were written before lineage \(no Handoff-Continues\)/);
    const json = handoff(repo, ['doctor', '--json']).json;
    const found = json.findings.filter((f: any) => f.kind === 'lineage');
    expect(found).toEqual([expect.objectContaining({ level: 'note', count: 2 })]);
    expect(json.healthy).toBe(true);

    const fresh = TestRepo.init();
    fresh.commit('feat: start', { 'a.txt': 'a\n' });
    expect(handoff(fresh, ['init']).code).toBe(0);
    expect(handoff(fresh, ['write', '--summary', 'first']).code).toBe(0);
    const clean = handoff(fresh, ['doctor']);
    expect(lineageLines(clean.stdout + clean.stderr)).toEqual([]);

    // An amend git does not follow (no notes.rewriteRef): our post-rewrite hook carries the
    // note over and says from where; that is no version written before lineage.
    fresh.git('config', '--unset', 'notes.rewriteRef');
    fresh.write('a.txt', 'b\n');
    expect(gitWithHooks(fresh, ['commit', '-q', '-a', '--amend', '-m', 'feat: start, amended']).code).toBe(0);
    const carried = fresh.git('log', '-1', '--format=%B', 'refs/notes/handoff');
    expect(carried).toContain('carried over from');
    expect(carried).toMatch(/^Handoff-Reattached-From: [0-9a-f]{40}$/m);
    const after = handoff(fresh, ['doctor']);
    expect(lineageLines(after.stdout + after.stderr), after.stdout).toEqual([]);
    expect(handoff(fresh, ['show', '--json']).json.handoff.summary).toBe('first');
  });
});
