import { afterAll, describe, expect, it } from 'vitest';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { procEntry, processAncestors, processHolding } from '../../src/process/proc.js';

const linux = process.platform === 'linux';
const dir = mkdtempSync(join(tmpdir(), 'handoff-proc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.runIf(linux)('the one /proc reader', () => {
  it('reads this process: its parent, its name and its command line', () => {
    const me = procEntry(process.pid);
    expect(me).toMatchObject({ pid: process.pid, ppid: process.ppid });
    expect(me?.argv[0]).toBe(process.argv0.includes('/') ? process.argv0 : me?.argv[0]);
    expect(me?.argv.length).toBeGreaterThan(0);
  });

  it('walks up from a process, nearest first, no further than asked', async () => {
    const seen = [];
    for await (const p of processAncestors(process.pid, 2)) seen.push(p);
    expect(seen.map((p) => p.pid)).toEqual([process.pid, process.ppid].slice(0, seen.length));
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.length).toBeLessThanOrEqual(2);
  });

  it('ends the walk at a process that is gone', async () => {
    const seen = [];
    for await (const p of processAncestors(2 ** 30, 6)) seen.push(p);
    expect(seen).toEqual([]);
    expect(procEntry(2 ** 30)).toBeNull();
  });

  it('names the process holding a file open, and none once it is closed', () => {
    const file = join(dir, 'held');
    writeFileSync(file, '');
    const fd = openSync(file, 'r');
    try {
      expect(processHolding(file)).toBe(process.pid);
    } finally {
      closeSync(fd);
    }
    expect(processHolding(file)).toBeNull();
  });
});
