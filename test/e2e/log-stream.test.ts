import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { handoff } from '../helpers/cli.js';
import { TestRepo, tempDir } from '../helpers/repo.js';

/**
 * `log` writes each version as it is found instead of building one document. The
 * bytes must stay those of `JSON.stringify(doc, null, 2)`, on a history that mixes our
 * versions, native notes (valid and not), and bookkeeping commits that are no versions.
 */
function nativeNote(repo: TestRepo, text: string, target = 'HEAD'): string {
  const file = join(tempDir(), 'note');
  writeFileSync(file, text);
  repo.git('notes', '--ref=handoff', 'add', '-f', '-F', file, target);
  return repo.notesRef()!;
}

describe('log: streamed, byte for byte the document it always was', () => {
  const repo = TestRepo.init();
  repo.commit('feat: start', { 'a.txt': 'a\n' });
  const v1 = handoff(repo, ['write', '--json', '--summary', 'first: "quoted", \\ back\nslash and a second line']).json.version as string;
  const c2 = repo.commit('feat: more', { 'b.txt': 'b\n' });
  const bad = nativeNote(repo, 'summary: [unclosed\n');
  // Bookkeeping: a policy approval commits to the notes ref without being a version.
  repo.write('.harness/session-workflow.yaml', 'phrases:\n  session_end: [done for today]\n');
  expect(handoff(repo, ['policy', 'approve']).code).toBe(0);
  const bookkeeping = repo.notesRef()!;
  repo.commit('feat: third', { 'c.txt': 'c\n' });
  const native = nativeNote(repo, 'schema: 1\nstatus: active\nsummary: written by hand, ünïcödé ✓\nbranch: main\ndate: "2026-01-02T03:04:05Z"\n');
  repo.git('checkout', '-q', '-b', 'feature');
  const f1 = handoff(repo, ['write', '--json', '--summary', 'on the feature branch']).json.version as string;
  repo.git('checkout', '-q', 'main');

  it('prints exactly JSON.stringify(doc, null, 2), every version once, bookkeeping left out', () => {
    for (const args of [
      ['log', '--json'],
      ['log', '--json', '--all'],
      ['log', '--json', '--branch', 'feature'],
    ]) {
      const r = handoff(repo, args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${JSON.stringify(JSON.parse(r.stdout), null, 2)}\n`);
      const ids = (r.json.versions as { version: string }[]).map((v) => v.version);
      expect(ids).not.toContain(bookkeeping);
      expect(new Set(ids).size).toBe(ids.length);
    }
    const all = handoff(repo, ['log', '--json', '--all']).json.versions as Record<string, unknown>[];
    expect(all.map((v) => v.version)).toEqual([f1, native, bad, v1]);
    expect(all[1]).toEqual({
      version: native,
      target: repo.git('rev-parse', 'HEAD').trim(),
      date: '2026-01-02T03:04:05Z',
      valid: true,
      session_id: null,
      status: 'active',
      summary: 'written by hand, ünïcödé ✓',
      continues: [],
      author: { name: 'Ada Tester', email: 'ada@example.com' },
      origin: 'local', // native git notes run in this clone
      signature: 'unsigned',
      visibility: 'shared',
      readable: true,
    });
    expect(all[2]).toMatchObject({ version: bad, target: c2, valid: false, session_id: null, status: null, summary: null });
    expect(all[3]).toMatchObject({ version: v1, valid: true, summary: 'first: "quoted", \\ back\nslash and a second line' });
    // The current branch (main): its versions, and the invalid note that names no branch.
    expect((handoff(repo, ['log', '--json']).json.versions as { version: string }[]).map((v) => v.version)).toEqual([native, bad, v1]);
  });

  it('-n stops early and an empty list keeps its compact form', () => {
    const two = handoff(repo, ['log', '--json', '--all', '-n', '2']);
    expect(two.stdout).toBe(`${JSON.stringify(JSON.parse(two.stdout), null, 2)}\n`);
    expect(two.json.versions).toHaveLength(2);
    expect(handoff(repo, ['log', '--json', '-n', '0']).stdout).toBe('{\n  "ok": true,\n  "versions": []\n}\n');
    const empty = TestRepo.init();
    empty.commit('feat: nothing yet');
    expect(handoff(empty, ['log', '--json']).stdout).toBe('{\n  "ok": true,\n  "versions": []\n}\n');
  });

  it('the human listing has one line per version, newest first', () => {
    const lines = handoff(repo, ['log', '--all']).stdout.trimEnd().split('\n');
    expect(lines.map((l) => l.slice(0, 12))).toEqual([f1, native, bad, v1].map((id) => id.slice(0, 12)));
    expect(lines[2]).toMatch(/\(invalid: /);
    expect(lines[3]).toMatch(/ main \S+ first: "quoted", \\ back$/);
  });
});
