import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { entriesUnder } from '../../src/state/file-walk.js';

const root = mkdtempSync(join(tmpdir(), 'handoff-walk-'));
afterAll(() => {
  chmodSync(join(root, 'shut'), 0o755);
  rmSync(root, { recursive: true, force: true });
});

// The ref-lock scan and the legacy-receipt scan each walked folders their own way.
describe('the one folder walk', () => {
  mkdirSync(join(root, 'a', 'b', 'c'), { recursive: true });
  writeFileSync(join(root, 'top'), '');
  writeFileSync(join(root, 'a', 'one'), '');
  writeFileSync(join(root, 'a', 'b', 'two'), '');
  writeFileSync(join(root, 'a', 'b', 'c', 'three'), '');
  symlinkSync('top', join(root, 'link'));
  mkdirSync(join(root, 'shut'));
  writeFileSync(join(root, 'shut', 'hidden'), '');
  chmodSync(join(root, 'shut'), 0);
  const names = (maxDepth?: number) => [...entriesUnder(root, maxDepth)].map((e) => relative(root, e.path)).sort();

  it('yields every entry that is not a folder, symbolic links included', () => {
    const all = names();
    expect(all).toEqual(expect.arrayContaining(['a/b/c/three', 'a/b/two', 'a/one', 'link', 'top']));
    expect(all.filter((n) => !n.startsWith('shut/'))).toEqual(['a/b/c/three', 'a/b/two', 'a/one', 'link', 'top']);
    // a folder it may not read is passed over (root may read any)
    if (process.getuid?.() !== 0) expect(all.some((n) => n.startsWith('shut/'))).toBe(false);
  });

  it('enters folders no deeper than asked', () => {
    expect(names(0).filter((n) => !n.startsWith('shut/'))).toEqual(['link', 'top']);
    expect(names(1).filter((n) => !n.startsWith('shut/'))).toEqual(['a/one', 'link', 'top']);
  });

  it('yields nothing under a folder that does not exist', () => {
    expect([...entriesUnder(join(root, 'none'))]).toEqual([]);
  });
});
