import { describe, expect, it } from 'vitest';
import { parseWorkItem, itemPath, handoffDocPath, parseItem, serializeItem, newItemRecord, mergeItemRecords, isItemPath } from '../../src/core/work-item.js';
import { decideTransition, type Evidence, type ItemAction } from '../../src/core/item-states.js';
import type { ItemState } from '../../src/core/work-item.js';
import { handoffReceiptId, receiptId, serializeReceipt, parseReceipt, type Receipt } from '../../src/core/receipt.js';
import { normalizePolicy, defaultPolicy, policyHash } from '../../src/core/policy.js';
import { assessAuthorization } from '../../src/core/authorization.js';

describe('work item syntax', () => {
  it.each([
    ['github:acme/widgets#12', { provider: 'github', owner: 'acme', repo: 'widgets', number: 12 }],
    ['github:a-b/c.d_e#1', { provider: 'github', owner: 'a-b', repo: 'c.d_e', number: 1 }],
    ['local:#7', { provider: 'local', owner: null, repo: null, number: 7 }],
    ['  local:#42 ', { provider: 'local', number: 42, text: 'local:#42' }],
  ])('%s parses', (text, want) => {
    expect(parseWorkItem(text)).toMatchObject(want);
  });

  it.each(['github:acme#12', 'github:acme/widgets', 'local:7', 'local:#0', 'local:#07', 'gitlab:a/b#1', 'github:/w#1', '#3', ''])('%j is refused', (text) => {
    expect(parseWorkItem(text)).toBeNull();
  });

  it('derives the record and document paths from the number', () => {
    const ref = parseWorkItem('github:acme/widgets#12')!;
    expect(itemPath(ref)).toBe('items/github/12.json');
    expect(handoffDocPath(ref)).toBe('docs/HANDOFF-12.md');
    expect(itemPath(parseWorkItem('local:#3')!)).toBe('items/local/3.json');
  });

  it('round-trips a record and reports a damaged one', () => {
    const r = { ...newItemRecord(parseWorkItem('local:#3')!, 'Title', 'Done when'), receipts: ['a', 'b'] };
    expect(parseItem(serializeItem(r))).toEqual(r);
    expect(parseItem('{')).toMatchObject({ problem: expect.stringContaining('not JSON') });
    expect(parseItem('{"workItem":"local:#3","state":"flying"}')).toMatchObject({ problem: expect.stringContaining('unknown state') });
  });
});

describe('item records changed on two clones (sync)', () => {
  const rec = (state: ItemState, receipts: string[], authorization: string | null = null) => ({
    ...newItemRecord(parseWorkItem('local:#1')!, 't', ''),
    state,
    receipts,
    authorization,
  });
  it.each([
    ['both appended after a shared start', ['c', 'n1'], ['c', 'o1', 'o2'], ['c', 'o1', 'o2', 'n1']],
    ['the newer added none: its last receipt stays last', ['c'], ['c', 'o1'], ['o1', 'c']],
    ['the older adds nothing: the newer unchanged', ['c', 'n1'], ['c'], ['c', 'n1']],
    ['unrelated starts', ['n1'], ['o1'], ['o1', 'n1']],
    ['a receipt the newer moved to its end stays last', ['c', 'h'], ['h', 'c', 'o1'], ['c', 'o1', 'h']],
    ['duplicates in the older are carried once', ['c', 'n1'], ['c', 'o1', 'o1'], ['c', 'o1', 'n1']],
  ])('%s', (_name, newer, older, want) => {
    const merged = mergeItemRecords(rec('ready-for-review', newer, 'n1'), rec('in-progress', older, 'o1'));
    expect(merged).toEqual(rec('ready-for-review', want, 'n1'));
  });

  it.each([
    ['items/local/3.json', true],
    ['items/github/12.json', true],
    ['items/local/03.json', false],
    ['items/local/README', false],
    ['receipts/x.json', false],
  ])('%s is an item record: %s', (path, want) => expect(isItemPath(path)).toBe(want));
});

describe('the state machine: every transition and every refusal', () => {
  const C = 'c'.repeat(40);
  const rows: [ItemAction, ItemState, Evidence, ItemState | RegExp][] = [
    ['claim', 'backlog', { commit: C }, 'in-progress'],
    ['claim', 'backlog', { commit: null }, /no commit/],
    ['claim', 'in-progress', { commit: C }, /claim only moves backlog/],
    ['claim', 'ready-for-review', { commit: C }, /claim only moves backlog/],
    ['claim', 'done', { commit: C }, /claim only moves backlog/],
    ['handoff', 'in-progress', { commit: C, receipt: 'r' }, 'in-progress'],
    ['handoff', 'in-progress', { commit: C, receipt: 'r', target: 'ready-for-review' }, 'ready-for-review'],
    ['handoff', 'in-progress', { commit: C, receipt: null }, /no receipt/],
    ['handoff', 'in-progress', { commit: null, receipt: 'r' }, /no commit/],
    ['handoff', 'in-progress', { commit: C, receipt: 'r', target: 'done' }, /not done/],
    ['handoff', 'backlog', { commit: C, receipt: 'r' }, /claim it first/],
    ['handoff', 'ready-for-review', { commit: C, receipt: 'r' }, /only accept moves it on/],
    ['handoff', 'done', { commit: C, receipt: 'r' }, /only a person can reopen/],
    ['accept', 'ready-for-review', { commit: C, reachableFrom: 'main' }, 'done'],
    ['accept', 'ready-for-review', { commit: null }, /does not exist/],
    ['accept', 'ready-for-review', { commit: C, reachableFrom: null }, /not reachable from any branch/],
    ['accept', 'in-progress', { commit: C, reachableFrom: 'main' }, /accept only moves ready-for-review/],
    ['accept', 'backlog', { commit: C, reachableFrom: 'main' }, /accept only moves ready-for-review/],
    ['accept', 'done', { commit: C, reachableFrom: 'main' }, /accept only moves ready-for-review/],
    ['authorize', 'in-progress', { commit: C }, 'in-progress'],
    ['authorize', 'ready-for-review', { commit: C }, 'ready-for-review'],
    ['authorize', 'backlog', { commit: C }, /only for in-progress or ready-for-review/],
    ['authorize', 'done', { commit: C }, /only for in-progress or ready-for-review/],
    ['retry', 'in-progress', { retriesLeft: 1 }, 'in-progress'],
    ['retry', 'in-progress', { retriesLeft: 0 }, /retry budget is spent/],
    ['retry', 'in-progress', {}, /no delivery authorization/],
    ['retry', 'done', { retriesLeft: 2 }, /no delivery to retry/],
    ['reopen', 'done', { actor: 'person' }, 'backlog'],
    ['reopen', 'in-progress', { actor: 'person' }, 'backlog'],
    ['reopen', 'ready-for-review', { actor: 'person' }, 'backlog'],
    ['reopen', 'done', { actor: 'agent' }, /only a person/],
    ['reopen', 'backlog', { actor: 'person' }, /already backlog/],
  ];
  it.each(rows)('%s from %s with %j', (action, from, ev, want) => {
    const v = decideTransition(action, from, ev);
    if (typeof want === 'string') expect(v).toEqual({ ok: true, to: want });
    else {
      expect(v.ok).toBe(false);
      expect(!v.ok && v.reason).toMatch(want);
    }
  });
});

describe('receipts', () => {
  const ref = parseWorkItem('local:#9')!;
  it('names a handoff receipt by the document hash', () => {
    expect(handoffReceiptId(ref, 'abcdef0123456789abcdef0123456789abcdef01')).toBe('handoff-9-abcdef012345');
  });
  it('gives other kinds distinct ids by position and time', () => {
    const a = receiptId('claim', ref, 0, 'c'.repeat(40), '2026-01-01T00:00:00Z');
    expect(a).toMatch(/^claim-9-[0-9a-f]{12}$/);
    expect(receiptId('claim', ref, 1, 'c'.repeat(40), '2026-01-01T00:00:00Z')).not.toBe(a);
    expect(receiptId('claim', ref, 0, 'c'.repeat(40), '2026-01-01T00:00:00Z')).toBe(a);
  });
  it('serializes the contract keys first, in order', () => {
    const r: Receipt = {
      kind: 'handoff',
      at: 'T',
      toStatus: 'in-progress',
      fromStatus: 'in-progress',
      receiptIds: [],
      commit: 'c',
      handoffDocHash: 'h',
      handoffDocPath: 'p',
      session: 's',
      workItem: 'local:#9',
      id: 'handoff-9-x',
    };
    expect(Object.keys(JSON.parse(serializeReceipt(r)))).toEqual([
      'id',
      'workItem',
      'session',
      'handoffDocPath',
      'handoffDocHash',
      'commit',
      'receiptIds',
      'fromStatus',
      'toStatus',
      'at',
      'kind',
    ]);
    expect(parseReceipt(serializeReceipt(r))).toEqual(r);
  });
});

describe('the policy', () => {
  it('is the defaults when empty', () => {
    expect(normalizePolicy(null)).toEqual({ policy: defaultPolicy() });
    expect(defaultPolicy().fields).toEqual({ status: 'Status', handoffDoc: 'Handoff doc', acceptance: 'Acceptance' });
  });
  it('lays the file over the defaults', () => {
    const r = normalizePolicy({
      fields: { status: 'Stage' },
      statusValues: { done: 'Shipped' },
      seed: { prefix: { project: 'Widgets', rules: 'AGENTS.md' }, constraints: ['no force push'] },
      phrases: { 'session-end': ['bye now'] },
    });
    expect('policy' in r && r.policy).toMatchObject({
      fields: { status: 'Stage', handoffDoc: 'Handoff doc' },
      statusValues: { done: 'Shipped', backlog: 'backlog' },
      seed: { prefix: { project: 'Widgets', rules: ['AGENTS.md'] }, constraints: ['no force push'] },
      phrases: { 'session-end': ['bye now'] },
    });
  });
  it.each([
    ['a list', [1, 2], /not a mapping/],
    ['a bad field', { fields: { status: 3 } }, /fields.status must be a non-empty string/],
    ['an unknown state', { statusValues: { shipped: 'x' } }, /statusValues.shipped is not a state/],
    ['constraints not strings', { seed: { constraints: [1] } }, /seed.constraints must be a list of strings/],
  ])('refuses %s', (_, raw, msg) => {
    const r = normalizePolicy(raw);
    expect('problem' in r && r.problem).toMatch(msg);
  });
  it('hashes like git hash-object', () => {
    expect(policyHash(Buffer.from(''))).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
  });
});

describe('delivery authorization', () => {
  const auth = { id: 'authorize-1-x', workItem: 'local:#1', retries: 2, branch: 'main', base: 'origin/main' } as Receipt;
  const facts = { currentWorkItem: null, branch: 'main', base: 'origin/main', retriesUsed: 0 };
  it('holds while its facts hold', () => {
    expect(assessAuthorization(auth, facts)).toMatchObject({ valid: true, reason: null, retriesLeft: 2 });
    expect(assessAuthorization(auth, { ...facts, currentWorkItem: 'local:#1', retriesUsed: 1 })).toMatchObject({ valid: true, retriesLeft: 1 });
  });
  it.each([
    [{ currentWorkItem: 'local:#2' }, /another work item is current \(local:#2\)/],
    [{ branch: 'other' }, /the branch changed/],
    [{ base: 'origin/release' }, /the base branch changed \(authorized against origin\/main, now origin\/release\)/],
    [{ retriesUsed: 2 }, /retries are spent \(2 of 2 used\)/],
  ])('is void when %j', (change, reason) => {
    const v = assessAuthorization(auth, { ...facts, ...change });
    expect(v.valid).toBe(false);
    expect(v.reason).toMatch(reason);
  });
});

describe('approved policy lists merged by sync', () => {
  it('keeps every approval, the kept side first, without duplicates', async () => {
    const { mergeApproved, approvedList } = await import('../../src/core/policy.js');
    const [h1, h2, h3] = ['1', '2', '3'].map((c) => c.repeat(40));
    expect(mergeApproved(`${h1}\n${h2}\n`, `${h2}\n${h3}\n${h3}\n`)).toBe(`${h1}\n${h2}\n${h3}\n`);
    expect(mergeApproved(`${h1}\n${h2}\n`, `${h2}\n`)).toBeNull();
    expect(approvedList('junk\n' + h1 + '\n')).toEqual([h1]);
  });
});
