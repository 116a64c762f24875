import { describe, expect, it } from 'vitest';
import { placeOrphans, type Candidate, type Orphan } from '../../src/core/orphans.js';
import {
  formatRecord,
  isRecordTombstone,
  parseRecord,
  purgedMessage,
  recordPath,
  recordSitsAt,
  tombstone,
  RECORD_TOMBSTONE,
  TOMBSTONE_SUMMARY,
} from '../../src/core/purge.js';

const hex = (c: string) => c.repeat(40);
const orphan = (target: string, timestamp: number, patchId: string | null, tree: string | null): Orphan => ({
  target,
  blob: `blob-${target}`,
  timestamp,
  patchId,
  tree,
});
const cand = (id: string, timestamp: number, tree: string, patchId: string | null = null): Candidate => ({ id, timestamp, tree, patchId });

describe('placeOrphans', () => {
  it('prefers the same patch (rebase merge), else the same tree (squash merge)', () => {
    const r = placeOrphans(
      [orphan('o1', 10, 'p1', 't1'), orphan('o2', 20, null, 't2'), orphan('o3', 30, 'p3', 't3')],
      [cand('c1', 100, 'tx', 'p1'), cand('c1b', 100, 't1'), cand('c2', 100, 't2'), cand('c9', 100, 't9', 'p9')],
      new Set(),
    );
    expect(r.map((p) => [p.orphan.target, p.to, 'by' in p ? p.by : p.reason])).toEqual([
      ['o3', null, 'no reachable commit has the same patch id or tree'],
      ['o2', 'c2', 'tree'],
      ['o1', 'c1', 'patch-id'],
    ]);
  });

  it('takes the newest match, never a commit that already has a note or was taken by a newer orphan', () => {
    const r = placeOrphans(
      [orphan('old', 10, null, 'T'), orphan('new', 20, null, 'T'), orphan('x', 5, null, 'U')],
      [cand('a', 100, 'T'), cand('b', 200, 'T'), cand('u', 50, 'U')],
      new Set(['u']),
    );
    expect(r.map((p) => [p.orphan.target, p.to])).toEqual([
      ['new', 'b'],
      ['old', null],
      ['x', null],
    ]);
  });

  it('an encrypted note no key here reads, on a commit this clone lacks, says why it cannot be placed', () => {
    const sealed = { ...orphan('o', 50, null, null), sealed: true };
    expect(placeOrphans([sealed], [cand('c', 60, 'T', 'P')], new Set())[0]).toMatchObject({
      to: null,
      reason: expect.stringMatching(/^the note is encrypted for others and its commit is not in this clone/),
    });
  });

  it('a target this clone lacks takes only a commit made after its note, never an older copy', () => {
    const lacking = { ...orphan('o', 50, 'P', 'T'), onlyNewer: true };
    expect(placeOrphans([lacking], [cand('old', 40, 'tx', 'P'), cand('new', 60, 'T')], new Set())[0]).toMatchObject({ to: 'new', by: 'tree' });
    expect(placeOrphans([lacking], [cand('old', 40, 'T', 'P')], new Set())[0]).toMatchObject({
      to: null,
      reason: 'only commits older than the note have the same patch id or tree (stale copies, not its replacement)',
    });
    expect(placeOrphans([{ ...lacking, onlyNewer: false }], [cand('old', 40, 'tx', 'P')], new Set())[0]).toMatchObject({ to: 'old', by: 'patch-id' });
  });

  it('says when a note records nothing to place it by', () => {
    expect(placeOrphans([orphan('o', 1, null, null)], [], new Set())[0]).toMatchObject({
      to: null,
      reason: 'the note records neither head_patch_id nor head_tree',
    });
  });
});

describe('purge: tombstones and records', () => {
  it('a tombstone keeps only the facts that place it', () => {
    const t = tombstone({
      summary: 'key AKIA...',
      branch: 'main',
      head: hex('a'),
      head_tree: hex('b'),
      head_patch_id: null,
      date: '2026-01-01T00:00:00Z',
      guards: ['x'],
    });
    expect(t).toEqual({
      schema: 1,
      status: 'paused',
      summary: TOMBSTONE_SUMMARY,
      purged: true,
      date: '2026-01-01T00:00:00Z',
      branch: 'main',
      head: hex('a'),
      head_tree: hex('b'),
    });
    expect(tombstone(null)).toEqual({ schema: 1, status: 'paused', summary: TOMBSTONE_SUMMARY, purged: true });
  });

  it('the purged commit keeps our trailers, not its subject', () => {
    expect(purgedMessage({ 'Handoff-Kind': 'version', 'Handoff-Target': hex('a'), Other: 'x' }, hex('a'))).toBe(
      `handoff aaaaaaa: content purged\n\nHandoff-Kind: version\nHandoff-Target: ${hex('a')}\n`,
    );
    expect(purgedMessage({}, hex('b'))).toBe('handoff bbbbbbb: content purged\n');
  });

  it('records round-trip; anything malformed is ignored', () => {
    const r = { version: hex('1'), target: hex('2'), blob: hex('3') };
    expect(parseRecord(formatRecord(r))).toEqual(r);
    expect(parseRecord('{')).toBeNull();
    expect(parseRecord(JSON.stringify({ ...r, blob: 'nope' }))).toBeNull();
  });

  it('two bookkeeping records one notes commit put in place have a record each, named the same everywhere', () => {
    const a = { version: hex('4'), target: hex('4'), blob: hex('5'), path: 'receipts/claim-1-abcdef012345.json' };
    const b = { ...a, blob: hex('6'), path: 'items/local/1.json' };
    expect(recordPath({ version: hex('1') })).toBe(`purged/${hex('1')}`);
    expect(recordPath(a)).toMatch(new RegExp(`^purged/${hex('4')}\\.[0-9a-f]{40}$`));
    expect(recordPath(a)).not.toBe(recordPath(b));
    expect(recordPath(a)).toBe(recordPath({ ...a }));
    const name = (r: { version: string; path?: string }) => recordPath(r).slice('purged/'.length);
    expect(recordSitsAt(a, name(a))).toBe(true);
    expect(recordSitsAt(a, name(b))).toBe(false);
    // where an earlier release kept a bookkeeping record
    expect(recordSitsAt(a, hex('4'))).toBe(true);
    expect(recordSitsAt({ version: hex('1'), target: hex('2'), blob: hex('3') }, hex('4'))).toBe(false);
  });

  it("a record's tombstone is told from a damaged record", () => {
    expect(isRecordTombstone(RECORD_TOMBSTONE)).toBe(true);
    expect(isRecordTombstone('{ "purged": true }')).toBe(true);
    for (const t of ['{"purged":true,"title":"x"}', '{"purged":"true"}', '[true]', '{', '', 'null']) expect(isRecordTombstone(t), t).toBe(false);
  });
});
