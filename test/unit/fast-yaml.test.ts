import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { load, CORE_SCHEMA } from 'js-yaml';
import { parseSubset, NotInSubset } from '../../src/core/fast-yaml.js';
import { toCanonicalYaml } from '../../src/core/canonical.js';

const jsYaml = (t: string) => load(t, { schema: CORE_SCHEMA });

/** Either the fast reader declines, or it agrees with js-yaml exactly. */
function agrees(text: string): 'fast' | 'declined' {
  let fast: unknown;
  try {
    fast = parseSubset(text);
  } catch (e) {
    if (e instanceof NotInSubset) return 'declined';
    throw e;
  }
  expect(fast).toEqual(jsYaml(text));
  return 'fast';
}

describe('fast YAML reader', () => {
  it.each([
    ['summary: hello\n', 'fast'],
    ['a: 1\nb: -2\nc: true\nd: null\ne: ~\nf: ""\ng: \'it\'\'s\'\n', 'fast'],
    ['list:\n  - a\n  - "b: c"\n  - []\n', 'fast'],
    ['list:\n- a\n- b\nnext: x\n', 'fast'],
    ['tracks:\n  - name: q\n    readiness: ready\n    entry_point: src/a.ts\n  - name: r\n', 'fast'],
    ['text: |-\n  line one\n\n  line three\nafter: 1\n', 'fast'],
    ['text: |\n  one\n', 'fast'],
    ['text: |+\n  one\n\n\nafter: 1\n', 'fast'],
    ['text: |+\n  one\n\n', 'fast'],
    ['url: http://example.com/a#b\n', 'fast'],
    ['head: 5b8a5019c949507c8ececc4abbe83cfbd399ff21\n', 'fast'],
    ['empty:\nnext: 1\n', 'fast'],
    ['nested:\n  deeper:\n    x: y\n', 'fast'],
    ['a: 1.5\n', 'declined'],
    ['a: 0x1F\n', 'declined'],
    ['a: [1, 2]\n', 'declined'],
    ['a: &x 1\nb: *x\n', 'declined'],
    ['# comment\na: 1\n', 'declined'],
    ['a: b # comment\n', 'declined'],
    ['a: >\n  folded\n', 'declined'],
    ['a: |2\n   x\n', 'declined'],
    ['---\na: 1\n', 'declined'],
    ['a: 1\na: 2\n', 'declined'],
    ['a: "\\x41"\n', 'declined'],
    ['a: 2026-01-01\n', 'declined'],
    ['a: yes\n', 'fast'],
  ])('%j is read %s', (text, how) => {
    expect(agrees(text)).toBe(how);
  });

  const scalar = fc.oneof(
    fc.string(),
    fc.string({ unit: 'grapheme' }),
    fc.constantFrom('', ' ', 'a\n', '\n', 'a\n\n', ' lead', 'trail ', 'x: y', '- x', '#x', 'true', 'null', '1', '0x1', '1e5', 'a\tb', 'é ü', '你好', 'line\n  indented\nback'),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
  );
  const value = fc.letrec((tie) => ({
    v: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('v'), { maxLength: 4 }), fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), tie('v'), { maxKeys: 4 })),
  })).v;

  it('reads every canonical document exactly as js-yaml does', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), value, { minKeys: 1, maxKeys: 6 }), (doc) => {
        const text = toCanonicalYaml(doc);
        expect(jsYaml(text)).toEqual(doc);
        agrees(text);
      }),
      { numRuns: 400 },
    );
  });
});

describe('fast YAML reader on real handoffs', () => {
  it('reads the canonical form of a full handoff without js-yaml', () => {
    const doc = {
      schema: 1,
      session_id: 'abc-123',
      status: 'active',
      summary: 'Parser done; quoting next.\nSecond line: with a colon',
      cursor: { last_discussed: 'escapes', pending_questions: ['RFC 4180?', 'и по-русски?'], next_step: '' },
      soft_context: { tone: 'terse', notes: [] },
      open_tracks: [{ name: 'quoting', readiness: 'design agreed', entry_point: 'src/parser.ts' }],
      ask_user: [],
      guards: ["don't force push", '不要改公共接口'],
      memory_updates: [],
      continuation_refs: ['docs/a.md'],
      consolidation: { triggered: false, produced: [] },
      date: '2026-11-30T10:00:00Z',
      branch: 'feature/x',
      head: '5b8a5019c949507c8ececc4abbe83cfbd399ff21',
      head_tree: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
      head_patch_id: null,
      recent_commits: ['5b8a501: feat: first (#12)'],
      content_hashes: { 'cadence/_INDEX.md': 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391' },
    };
    expect(agrees(toCanonicalYaml(doc))).toBe('fast');
  });
});
