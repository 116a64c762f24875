import { describe, expect, it } from 'vitest';
import { heldBeyond, joinHeads, lineageTrailers, orderHeads, parseLineage, reattachLineage, remapLineage } from '../../src/core/lineage.js';

const id = (c: string) => c.repeat(40);

describe('lineage trailers', () => {
  it('reads what lineageTrailers writes; none is [] and absent is null (a version written before lineage)', () => {
    const t = lineageTrailers([id('a'), id('b')], [id('a'), id('c')]);
    expect(t).toEqual({ 'Handoff-Continues': `${id('a')},${id('b')}`, 'Handoff-Beside': id('c') });
    expect(parseLineage(t)).toEqual({ continues: [id('a'), id('b')], beside: [id('c')] });
    expect(parseLineage(lineageTrailers([], []))).toEqual({ continues: [], beside: [] });
    expect(parseLineage({})).toEqual({ continues: null, beside: [] });
    expect(parseLineage({ 'Handoff-Continues': 'HEAD, not-an-id' })).toEqual({ continues: [], beside: [] });
  });

  it('purge maps the ids of the lineage trailers, and nothing else', () => {
    const msg = `handoff 1234567: ${id('a')}\n\nHandoff-Kind: version\nHandoff-Target: ${id('a')}\nHandoff-Continues: ${id('a')},${id('b')}\nHandoff-Beside: ${id('c')}\n`;
    const out = remapLineage(msg, (x) => (x === id('a') ? id('d') : undefined));
    expect(out).toBe(msg.replace(`Continues: ${id('a')}`, `Continues: ${id('d')}`));
  });
});

describe('the order between heads', () => {
  const h = (name: string, timestamp: number, target = name) => ({ id: id(name), timestamp, target: id(target) });
  it('a head whose target descends from the others first, then the newer date, then the smaller id', () => {
    const [a, b, c] = [h('a', 10), h('b', 30), h('c', 20)];
    expect(orderHeads([a, b, c], null).map((x) => x.id)).toEqual([b, c, a].map((x) => x.id));
    expect(orderHeads([a, b, c], new Set([id('a')])).map((x) => x.id)).toEqual([a, b, c].map((x) => x.id));
    const [d, e] = [h('e', 5), h('d', 5)];
    expect(orderHeads([d, e], null).map((x) => x.id)).toEqual([id('d'), id('e')]);
  });
});

describe('what a head holds that another does not', () => {
  const shown = { ask_user: ['x'], soft_context: { notes: ['n1'] }, cursor: { pending_questions: ['q1', 'q2'] } };
  const other = { ask_user: ['x', 'y'], guards: ['g'], soft_context: { notes: ['n1', 'n2'] }, cursor: { pending_questions: ['q3', 'q4'] } };
  it('lists the items only the other holds, field by field', () => {
    expect(heldBeyond(shown, other)).toEqual({ ask_user: ['y'], pending_questions: ['q3', 'q4'], guards: ['g'], notes: ['n2'] });
    expect(heldBeyond(other, other)).toEqual({});
  });
  it('joining keeps every item, pending questions within their 3, and names what did not fit', () => {
    const { handoff, leftOut } = joinHeads(shown, [other]);
    expect(handoff.ask_user).toEqual(['x', 'y']);
    expect(handoff.guards).toEqual(['g']);
    expect(handoff.soft_context?.notes).toEqual(['n1', 'n2']);
    expect(handoff.cursor?.pending_questions).toEqual(['q1', 'q2', 'q3']);
    expect(leftOut).toEqual(['q4']);
  });
});

describe('reattachLineage', () => {
  const a = 'a'.repeat(40);
  const b = 'b'.repeat(40);
  const h = 'c'.repeat(40);
  it('continues the version carried and the re-attach before it; the heads it does not continue are left open', () => {
    expect(reattachLineage(a, b, [b, h])).toEqual({ 'Handoff-Continues': `${a},${b}`, 'Handoff-Beside': h });
    expect(reattachLineage(a, null, [])).toEqual({ 'Handoff-Continues': a });
    expect(reattachLineage(a, a, [a])).toEqual({ 'Handoff-Continues': a });
  });
  it('records nothing when neither is known (it then continues what lies below it, as before lineage)', () => {
    expect(reattachLineage(undefined, null, [h])).toEqual({});
  });
});
