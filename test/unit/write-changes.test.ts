import { describe, expect, it } from 'vitest';
import { describeWriteChanges } from '../../src/core/write-changes.js';
import { findUnknownFields, unknownFieldMessage } from '../../src/core/unknown-fields.js';
import type { Handoff } from '../../src/core/schema.js';

const prev: Handoff = {
  session_id: 'a',
  summary: 'one',
  cursor: { next_step: 'x', pending_questions: ['q1'] },
  soft_context: { tone: 'terse' },
  guards: ['g1', 'g2'],
  date: '2026-01-01T00:00:00Z',
  head: 'a'.repeat(40),
};

describe('describeWriteChanges', () => {
  it.each<[string, Handoff, string]>([
    ['nothing', { ...prev, date: '2027-01-01T00:00:00Z', head: 'b'.repeat(40) }, 'no field changed'],
    ['the session alone', { ...prev, session_id: 'b', date: '2027-01-01T00:00:00Z', head: 'b'.repeat(40) }, "only session_id changed ('a' -> 'b')"],
    ['a session id dropped', { ...prev, session_id: undefined }, "only session_id changed ('a' -> none)"],
    ['the session beside another change', { ...prev, session_id: 'b', summary: 'two' }, 'changed summary'],
    [
      'the issue example',
      { summary: 'two', cursor: { next_step: 'y', pending_questions: ['q1'] } },
      'changed summary, cursor.next_step; removed soft_context.tone, 2 guards',
    ],
    ['one list item edited', { ...prev, guards: ['g1', 'g3'] }, 'changed 1 guard'],
    ['items in and out', { ...prev, guards: ['g9'] }, 'added 1 guard; removed 2 guards'],
    ['an empty field set', { ...prev, cursor: { ...prev.cursor, last_discussed: 'parsing' } }, 'added cursor.last_discussed'],
    ['an unknown field', { ...prev, sumary: 'oops' }, 'added sumary'],
    ['produced fills consolidation', { ...prev, consolidation: { triggered: true, produced: ['docs/a.md'] } }, 'added 1 produced path'],
  ])('%s', (_, next, line) => {
    expect(describeWriteChanges({ id: 'v1', handoff: prev }, next).line).toBe(line);
  });

  it('a first version lists what it holds; data names the items', () => {
    expect(describeWriteChanges(null, { summary: 's', guards: ['g'] })).toEqual({
      previous: null,
      fields: [
        { field: 'summary', change: 'added' },
        { field: 'guards', change: 'added' },
      ],
      line: 'first version: summary, guards',
    });
    const c = describeWriteChanges({ id: 'v1', handoff: prev }, { ...prev, guards: ['g2'] });
    expect(c.fields).toEqual([{ field: 'guards', change: 'changed', items_added: [], items_removed: ['g1'] }]);
  });
});

describe('findUnknownFields', () => {
  it.each<[Record<string, unknown>, string[]]>([
    [{ sumary: 'x' }, ["unknown field 'sumary' (did you mean 'summary'?)"]],
    [{ next_step: 'x' }, ["unknown field 'next_step' (it belongs under cursor: cursor.next_step)"]],
    [{ pending_question: ['x'] }, ["unknown field 'pending_question' (it belongs under cursor: cursor.pending_questions)"]],
    [{ cursor: { pending_question: ['x'] } }, ["unknown field 'cursor.pending_question' (did you mean 'cursor.pending_questions'?)"]],
    [{ cursor: { summary: 'x' } }, ["unknown field 'cursor.summary' (it belongs at the top level: summary)"]],
    [{ Guards: ['x'] }, ["unknown field 'Guards' (did you mean 'guards'?)"]],
    [{ open_tracks: [{ name: 'a', entrypoint: 'b' }] }, ["unknown field 'open_tracks[0].entrypoint' (did you mean 'open_tracks[0].entry_point'?)"]],
    [{ x_custom: 1 }, ["unknown field 'x_custom' (kept as is; not part of the handoff schema)"]],
    [{ summary: 'x', open_treks: [], purged: true, cursor: { next_step: '' } }, []],
  ])('%j', (doc, messages) => {
    expect(findUnknownFields(doc).map(unknownFieldMessage)).toEqual(messages);
  });
});
