import { describe, expect, it } from 'vitest';
import { newestNote, noteDate, parseRewriteList } from '../../src/core/rewrite.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);
const N = 'f'.repeat(40);

describe("post-rewrite's list (githooks(5): `<old> <new> [<extra>]` per line)", () => {
  it('groups the old commits by the new one, in git order, each once; skips what is not a pair of ids', () => {
    const input = `${A} ${N}\n${B} ${N} extra info\n${A} ${N}\n${C} ${C.replace(/c/g, 'd')}\n\nnot a line\n${A}\n`;
    expect([...parseRewriteList(input)]).toEqual([
      [N, [A, B]],
      [C.replace(/c/g, 'd'), [C]],
    ]);
    expect(parseRewriteList('').size).toBe(0);
  });
});

describe('the handoff a rewritten commit keeps', () => {
  const note = (blob: string, date: string | null) => ({ blob, text: `schema: 1\n${date === null ? '' : `date: ${date}\n`}summary: ${blob}\n` });

  it('reads the top-level date, quoted or not', () => {
    expect(noteDate('schema: 1\ndate: 2026-03-01T12:00:00Z\n')).toBe(Date.parse('2026-03-01T12:00:00Z'));
    expect(noteDate("date: '2026-03-01T12:00:00Z'\n")).toBe(Date.parse('2026-03-01T12:00:00Z'));
    expect(noteDate('summary: x\n  date: 2026-03-01T12:00:00Z\n')).toBeNull();
    expect(noteDate('date: yesterday\n')).toBeNull();
  });

  it.each([
    ['the newest by date, listed first', [note('new', '2026-03-01T12:00:00Z'), note('old', '2026-03-01T11:00:00Z')], 'new'],
    ['the newest by date, listed last', [note('old', '2026-03-01T11:00:00Z'), note('new', '2026-03-01T12:00:00Z')], 'new'],
    ['on a tie, the one git listed last (what overwrite keeps)', [note('first', '2026-03-01T12:00:00Z'), note('last', '2026-03-01T12:00:00Z')], 'last'],
    ['without dates, the one git listed last', [note('first', null), note('last', null)], 'last'],
    ['a dated note beats an undated one listed after it', [note('dated', '2026-03-01T12:00:00Z'), note('undated', null)], 'dated'],
  ])('%s', (_name, notes, want) => {
    expect(newestNote(notes)!.blob).toBe(want);
  });

  it('none when no old commit carried a handoff', () => {
    expect(newestNote([])).toBeNull();
  });
});
