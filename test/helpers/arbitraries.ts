/**
 * fast-check generators for handoffs: what `write` accepts (known fields of the right
 * types with hostile strings, unknown fields of any shape) and the fields the tool fills.
 */
import { expect } from 'vitest';
import fc from 'fast-check';
import { normalizeInput, withDefaults, KEY_ORDER, type Handoff } from '../../src/core/schema.js';

/** Any Unicode scalar value (no lone surrogates: those cannot be UTF-8 at all). */
const anyChar = fc
  .integer({ min: 0, max: 0x10ffff })
  .filter((cp) => cp < 0xd800 || cp > 0xdfff)
  .map((cp) => String.fromCodePoint(cp));
export const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: anyChar, maxLength: 12 }),
  fc.constantFrom(
    '',
    ' ',
    '\n',
    'a\n',
    'a\n\n',
    ' lead',
    'trail ',
    'x: y',
    '- x',
    '#x',
    '? q',
    'true',
    'no',
    'null',
    '~',
    '1',
    '0x1F',
    '1e5',
    '.inf',
    '2026-01-01',
    'a\tb',
    '\ttab',
    'line\n  indented\nback',
    '"quoted"',
    "it's",
    '|',
    '>',
    '&a',
    '*a',
    '!tag',
    '%',
    '@',
    '`',
    'é ü',
    '你好',
    'Привет',
    '\u2028',
    '\ufeffbom',
    'a\r\nb',
    '\u0000',
    '\u007f',
    '😀',
  ),
);
const nonEmpty = text.filter((s) => s.length > 0);
const list = fc.array(text, { maxLength: 4 });
const knownKey = new Set([...KEY_ORDER, 'open_treks']);
const unknownKey = fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !knownKey.has(k) && k !== '__proto__');
const number = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
);
const jsonish = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    text,
    number,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(unknownKey, tie('v'), { maxKeys: 3 }),
  ),
})).v;

/** A document `write` accepts: known fields of the right types, unknown fields of any shape. */
export const writeInput = fc
  .tuple(
    fc.record(
      {
        session_id: text,
        status: fc.constantFrom('active', 'paused', 'done'),
        summary: text,
        cursor: fc.record({ last_discussed: text, pending_questions: fc.array(text, { maxLength: 3 }), next_step: text }, { requiredKeys: [] }),
        soft_context: fc.record({ tone: text, notes: list }, { requiredKeys: [] }),
        open_tracks: fc.array(fc.record({ name: nonEmpty, readiness: text, entry_point: text }), { maxLength: 3 }),
        ask_user: list,
        guards: list,
        memory_updates: list,
        mid_task: fc.record({ slug: text, where_stopped: text }),
        continuation_refs: list,
        consolidation: fc.record({ produced: list }),
        work_item: fc.constantFrom('github:octo/repo#12', 'local:#3'),
      },
      { requiredKeys: [] },
    ),
    fc.dictionary(unknownKey, jsonish, { maxKeys: 3 }),
  )
  .map(([known, unknown]) => ({ ...known, ...unknown }));

export const toolFields = fc.record({
  date: fc.constant('2026-01-01T00:00:00Z'),
  branch: fc.option(nonEmpty, { nil: null }),
  head: fc.stringMatching(/^[0-9a-f]{40}$/),
  head_tree: fc.stringMatching(/^[0-9a-f]{40}$/),
  head_patch_id: fc.option(fc.stringMatching(/^[0-9a-f]{40}$/), { nil: null }),
  recent_commits: list,
  content_hashes: fc.dictionary(nonEmpty, fc.stringMatching(/^[0-9a-f]{40}$/), { maxKeys: 2 }),
});

/** What `write` stores for an accepted input. */
export function stored(input: Record<string, unknown>, tool: Record<string, unknown>): Handoff {
  const { handoff, problems } = normalizeInput(input);
  expect(problems.map(String)).toEqual([]);
  return withDefaults({ ...handoff, ...tool } as Handoff);
}
