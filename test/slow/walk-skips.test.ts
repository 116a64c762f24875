/**
 * Issue 23, point 7: a line of bookkeeping commits is read once and jumped over afterwards
 * (src/git/walk-skips.ts). The jump must change nothing a reader answers: the same log, the
 * same latest, also when another line of the history joins the middle of the jumped line.
 * Real git (`fast-import`, as a remote would have written them), the packed CLI.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';

/** `count` receipts on top of `from` (marks :1.. of this import), the last at `ref`. */
function receipts(repo: TestRepo, ref: string, from: string, count: number, first: number): string {
  let s = '';
  for (let i = 0; i < count; i++) {
    const msg = `receipt ${first + i}\n\nHandoff-Kind: receipt\n`;
    s += `commit ${ref}\nmark :${first + i}\ncommitter Mallory <m@example.com> ${4102444800 + first + i} +0000\ndata ${msg.length}\n${msg}`;
    if (i === 0) s += `from ${from}\n`;
    s += `M 100644 inline receipts/r-${(first + i) % 7}.json\ndata 3\n{}\n\n`;
  }
  return s;
}

/** `count` merges on `ref`, each of the previous one and a receipt made on `from` (marks from `first` on). */
function mergeChain(ref: string, from: string, count: number, first: number): string {
  let s = '';
  for (let i = 0; i < count; i++) {
    const [r, m] = [first + 2 * i, first + 2 * i + 1];
    const msg = i % 2 ? `merge ${i}\n` : `merge ${i}\n\nHandoff-Kind: merge\n`;
    const rec = `receipt ${i}\n\nHandoff-Kind: receipt\n`;
    s += `commit refs/heads/side-r\nmark :${r}\ncommitter Mallory <m@example.com> ${4102444800 + r} +0000\ndata ${rec.length}\n${rec}from ${from}\nM 100644 inline receipts/s-${i % 5}.json\ndata 3\n{}\n\n`;
    s += `commit ${ref}\nmark :${m}\ncommitter Mallory <m@example.com> ${4102444800 + m} +0000\ndata ${msg.length}\n${msg}${i === 0 ? `from ${from}\n` : ''}merge :${r}\n\n`;
  }
  return s;
}

describe('a chain of 300 bookkeeping merges', () => {
  it('is jumped over once read (git reads the region), and every reader answers as before', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    expect(handoff(repo, ['write', '--summary', 'first']).code).toBe(0);
    const base = repo.notesRef()!;
    // the chain, and a side line that joins it in its middle (at the merge of mark :300), merged on top
    let s = mergeChain('refs/notes/handoff', base, 300, 1);
    s += `commit refs/heads/side-notes\ncommitter Mallory <m@example.com> 4102449999 +0000\ndata 5\nside\nfrom :300\nM 100644 inline receipts/side.json\ndata 3\n{}\n\n`;
    expect(repo.gitRaw(['fast-import', '--quiet'], { input: s }).status).toBe(0);
    const side = repo.git('rev-parse', 'refs/heads/side-notes').trim();
    const tip = repo.notesRef()!;
    const merged = repo.gitRaw(['commit-tree', `${tip}^{tree}`, '-p', tip, '-p', side, '-m', 'merge'], {}).stdout.trim();
    repo.git('update-ref', 'refs/notes/handoff', merged);
    repo.git('branch', '-D', 'side-notes', 'side-r');
    repo.commit('feat: more', { 'b.txt': 'b\n' });
    expect(handoff(repo, ['write', '--summary', 'second']).code).toBe(0);

    const skips = join(repo.gitDir(), 'handoff', 'walk-skips.json');
    const read = () => [
      handoff(repo, ['log', '--json']).stdout,
      handoff(repo, ['show', '--json', '--version', '~1']).stdout,
      handoff(repo, ['show', '--json']).stdout,
    ];
    rmSync(skips, { force: true });
    const first = read();
    const regions = JSON.parse(readFileSync(skips, 'utf8')).skips as [string, string[], number][];
    expect(regions.some(([, below, n]) => below.includes(base) && n >= 256)).toBe(true);
    expect(read()).toEqual(first);
    expect(JSON.parse(first[0]).versions.map((v: any) => v.summary)).toEqual(['second', 'first']);
    rmSync(skips);
    expect(read()).toEqual(first);
  });
});

describe('a line of 400 bookkeeping commits', () => {
  it('is jumped over once read, and every reader answers as before', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    expect(handoff(repo, ['write', '--summary', 'first']).code).toBe(0);
    const base = repo.notesRef()!;
    // the line, and a side line that joins it in its middle (at mark :200) and then a version on top
    let s = receipts(repo, 'refs/notes/handoff', base, 400, 1);
    s += `commit refs/heads/side-notes\ncommitter Mallory <m@example.com> 4102449999 +0000\ndata 5\nside\nfrom :200\nM 100644 inline receipts/side.json\ndata 3\n{}\n\n`;
    expect(repo.gitRaw(['fast-import', '--quiet'], { input: s }).status).toBe(0);
    const side = repo.git('rev-parse', 'refs/heads/side-notes').trim();
    const tip = repo.notesRef()!;
    const merged = repo.gitRaw(['commit-tree', `${tip}^{tree}`, '-p', tip, '-p', side, '-m', 'merge'], {}).stdout.trim();
    repo.git('update-ref', 'refs/notes/handoff', merged);
    repo.git('branch', '-D', 'side-notes');
    repo.commit('feat: more', { 'b.txt': 'b\n' });
    expect(handoff(repo, ['write', '--summary', 'second']).code).toBe(0);

    const skips = join(repo.gitDir(), 'handoff', 'walk-skips.json');
    const read = () => [
      handoff(repo, ['log', '--json']).stdout,
      handoff(repo, ['show', '--json', '--version', '~1']).stdout,
      handoff(repo, ['show', '--json']).stdout,
    ];
    // (the write walked already: start from none)
    rmSync(skips, { force: true });
    const first = read();
    expect(existsSync(skips)).toBe(true);
    const lines = JSON.parse(readFileSync(skips, 'utf8')).skips as [string, string[], number][];
    expect(lines.some(([, below, n]) => below.includes(base) && n >= 200)).toBe(true);
    const again = read();
    expect(again).toEqual(first);
    expect(JSON.parse(first[0]).versions.map((v: any) => v.summary)).toEqual(['second', 'first']);
    rmSync(skips);
    expect(read()).toEqual(first);
  });
});
