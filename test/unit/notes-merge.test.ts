import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { planMerge, resolveConflict, syncAction, type EntryChange } from '../../src/core/notes-merge.js';
import { orderHeads } from '../../src/core/lineage.js';

const changes = (o: Record<string, [string | null, string | null]>) =>
  new Map<string, EntryChange>(Object.entries(o).map(([k, [base, blob]]) => [k, { base, blob }]));

describe('planMerge: three-way, entry by entry', () => {
  it.each([
    ['only theirs changed: take it', {}, { 'note:a': ['b0', 'b1'] }, [{ key: 'note:a', blob: 'b1' }], []],
    ['only ours changed: nothing to apply', { 'note:a': ['b0', 'b1'] }, {}, [], []],
    ['both changed it the same way', { 'note:a': ['b0', 'b1'] }, { 'note:a': ['b0', 'b1'] }, [], []],
    ['theirs added, ours did not', {}, { 'path:receipts/r2.json': [null, 'r2'] }, [{ key: 'path:receipts/r2.json', blob: 'r2' }], []],
    [
      'both added different receipts: both kept',
      { 'path:receipts/r1.json': [null, 'r1'] },
      { 'path:receipts/r2.json': [null, 'r2'] },
      [{ key: 'path:receipts/r2.json', blob: 'r2' }],
      [],
    ],
    ['ours removed, theirs changed: the change wins', { 'note:a': ['b0', null] }, { 'note:a': ['b0', 'b2'] }, [{ key: 'note:a', blob: 'b2' }], []],
    ['theirs removed, ours changed: ours stays', { 'note:a': ['b0', 'b1'] }, { 'note:a': ['b0', null] }, [], []],
    ['theirs removed, ours untouched: removed', {}, { 'note:a': ['b0', null] }, [{ key: 'note:a', blob: null }], []],
    [
      'both changed differently: a conflict',
      { 'note:a': ['b0', 'b1'] },
      { 'note:a': ['b0', 'b2'] },
      [],
      [{ key: 'note:a', base: 'b0', ours: 'b1', theirs: 'b2' }],
    ],
    [
      'both added differently (unrelated histories)',
      { 'note:a': [null, 'b1'] },
      { 'note:a': [null, 'b2'] },
      [],
      [{ key: 'note:a', base: null, ours: 'b1', theirs: 'b2' }],
    ],
  ] as const)('%s', (_name, ours, theirs, apply, conflicts) => {
    expect(planMerge(changes(ours as any), changes(theirs as any))).toEqual({ apply, conflicts });
  });
});

describe('resolveConflict: the newer version wins whole', () => {
  it.each([
    [{ version: 'a', timestamp: 10 }, { version: 'b', timestamp: 20 }, 'theirs'],
    [{ version: 'a', timestamp: 30 }, { version: 'b', timestamp: 20 }, 'ours'],
    // an exact tie: the smaller id, the version the readers show first (orderHeads)
    [{ version: 'a', timestamp: 20 }, { version: 'b', timestamp: 20 }, 'ours'],
    [{ version: 'c', timestamp: 20 }, { version: 'b', timestamp: 20 }, 'theirs'],
    [null, { version: 'b', timestamp: 1 }, 'theirs'],
    [{ version: 'a', timestamp: 1 }, null, 'ours'],
  ] as const)('%j vs %j -> %s', (ours, theirs, expected) => {
    expect(resolveConflict(ours, theirs)).toBe(expected);
    // Every clone settles the same pair the same way, whichever side it is on.
    if (ours && theirs) expect(resolveConflict(theirs, ours)).toBe(expected === 'ours' ? 'theirs' : 'ours');
  });
});

describe('resolveConflict and the readers agree on which version is newer', () => {
  it('keeps the side orderHeads puts first, on any dates and ids', () => {
    const side = fc.record({ version: fc.constantFrom('0a', '0b', '1a', 'ff', '10'), timestamp: fc.integer({ min: 0, max: 3 }) });
    fc.assert(
      fc.property(side, side, (ours, theirs) => {
        fc.pre(ours.version !== theirs.version);
        const heads = [ours, theirs].map((w) => ({ id: w.version, timestamp: w.timestamp, target: 't' }));
        const first = orderHeads(heads, null)[0].id;
        expect(resolveConflict(ours, theirs)).toBe(first === ours.version ? 'ours' : 'theirs');
      }),
      { numRuns: 200 },
    );
  });
});

describe('syncAction', () => {
  it.each([
    [null, null, null, 'up-to-date'],
    ['L', 'L', 'L', 'up-to-date'],
    ['L', null, null, 'push'],
    [null, 'R', null, 'fast-forward'],
    ['L', 'R', 'R', 'push'],
    ['L', 'R', 'L', 'fast-forward'],
    ['L', 'R', 'B', 'merge'],
    ['L', 'R', null, 'merge'],
  ] as const)('local %s, remote %s, base %s -> %s', (local, remote, base, expected) => {
    expect(syncAction(local, remote, base)).toBe(expected);
  });
});
