import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { handoff } from '../helpers/cli.js';
import { TestRepo, tempDir } from '../helpers/repo.js';

/** Adds a note the way another tool would: native `git notes`, any bytes. Returns the version id. */
function nativeNote(repo: TestRepo, bytes: Buffer): string {
  const file = join(tempDir(), 'note');
  writeFileSync(file, bytes);
  const blob = repo.git('hash-object', '-w', file).trim();
  repo.git('notes', '--ref=handoff', 'add', '-f', '-C', blob, 'HEAD');
  return repo.notesRef()!;
}

describe('bad history: notes that are not valid handoffs', () => {
  const repo = TestRepo.init();
  repo.commit('feat: start', { 'a.txt': 'a\n' });
  const good = handoff(repo, ['write', '--json', '--summary', 'the last good one']).json.version as string;
  const bad: [string, string][] = [
    ['unparseable YAML', nativeNote(repo, Buffer.from('summary: [unclosed\n'))],
    ['a YAML list', nativeNote(repo, Buffer.from('- just\n- a list\n'))],
    ['wrong types', nativeNote(repo, Buffer.from('status: 42\nsummary: [1, 2]\n'))],
    ['binary bytes', nativeNote(repo, Buffer.from([0x73, 0x3a, 0x00, 0x01, 0x0a]))],
    ['invalid UTF-8', nativeNote(repo, Buffer.from([0x73, 0x3a, 0x20, 0xc3, 0x28, 0x0a]))],
    ['over 1 MiB', nativeNote(repo, Buffer.from(`summary: "${'x'.repeat(1024 * 1024 + 10)}"\n`))],
  ];

  it('show falls back to the newest valid version, one warning line per bad one, naming it (six of them: three, the stale line, then how many more notices there are)', () => {
    const capped = handoff(repo, ['show']);
    expect(capped.code, capped.stderr).toBe(0);
    expect(capped.stdout).toContain('the last good one');
    // The bookmark holds at most 5 notice lines (DESIGN.md): four warnings, then the count of the rest.
    expect(capped.stdout.split('\n').filter((l) => l.startsWith('warning: skipped version'))).toHaveLength(3);
    expect(capped.stdout).toMatch(/^warning: this handoff is stale/m); // a line about the shown version is never the one hidden
    expect(capped.stdout).toMatch(/^… [2-9] more notices: git handoff show --notices$/m);
    // show --notices prints them all.
    const r = handoff(repo, ['show', '--notices']);
    expect(r.code, r.stderr).toBe(0);
    for (const [what, id] of bad) {
      const lines = r.stdout.split('\n').filter((l) => l.includes(id.slice(0, 12)));
      expect(lines, what).toHaveLength(1);
      expect(lines[0]).toMatch(/^warning: skipped version [0-9a-f]{12}: not a valid handoff/);
    }
    const json = handoff(repo, ['show', '--json']);
    expect(json.json.version).toBe(good);
  });

  it('log lists every version and marks the invalid ones', () => {
    for (const args of [
      ['log', '--json'],
      ['log', '--all', '--json'],
    ]) {
      const r = handoff(repo, args);
      expect(r.code, r.stderr).toBe(0);
      const rows = r.json.versions as { version: string; valid: boolean }[];
      expect(rows.map((v) => v.version)).toEqual([...bad.map(([, id]) => id).reverse(), good]);
      expect(rows.map((v) => v.valid)).toEqual([...bad.map(() => false), true]);
    }
    const human = handoff(repo, ['log']);
    expect(human.stdout.split('\n').filter((l) => l.includes('(invalid: '))).toHaveLength(bad.length);
    expect(human.stdout).toMatch(/invalid: the note is \d+ bytes, over the \d+-byte limit/);
    expect(human.stdout).toMatch(/invalid: the note holds binary data/);
    expect(human.stdout).toMatch(/invalid: the note is not valid UTF-8/);
  });

  it('write still works on top, and refuses bad input saying which', () => {
    const before = repo.notesRef();
    repo.git('config', 'handoff.maxBytes', '100');
    const big = handoff(repo, ['write'], { input: `summary: ${'y'.repeat(200)}\n` });
    expect(big).toMatchObject({ code: 1 });
    expect(big.stderr).toMatch(/^git handoff: stdin is \d+ bytes, over the 100-byte limit \(handoff\.maxBytes\)$/m);
    repo.git('config', '--unset', 'handoff.maxBytes');
    const binary = handoff(repo, ['write'], { input: Buffer.from('summary: a\u0000b\n') });
    expect(binary.code).toBe(1);
    expect(binary.stderr).toMatch(/stdin holds binary data \(byte 0x00/);
    const utf8 = handoff(repo, ['write'], { input: Buffer.from([0x73, 0x3a, 0x20, 0xff, 0x0a]) });
    expect(utf8.code).toBe(1);
    expect(utf8.stderr).toMatch(/stdin is not valid UTF-8/);
    expect(repo.notesRef()).toBe(before);

    const w = handoff(repo, ['write', '--json', '--summary', 'fresh start']);
    expect(w.code, w.stderr).toBe(0);
    expect(handoff(repo, ['show', '--json']).json.handoff.summary).toBe('fresh start');
    repo.fsck();
  });
});
