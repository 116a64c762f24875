import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { load, loadAll, CORE_SCHEMA } from 'js-yaml';
import { parseSubset, NotInSubset } from '../../src/core/fast-yaml.js';
import { toCanonicalYaml } from '../../src/core/canonical.js';

const jsYaml = (t: string) => load(t, { schema: CORE_SCHEMA });
/** What src/core/parse.ts takes from js-yaml: the one document, or null for none. */
const jsYamlDocument = (t: string) => {
  const docs: unknown[] = [];
  loadAll(t, (d) => docs.push(d), { schema: CORE_SCHEMA });
  if (docs.length > 1) throw new Error('more than one document');
  return docs[0] ?? null;
};

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
    ['a: 1\nb: -2\nc: true\nd: null\nf: ""\ng: it\'s\n', 'fast'],
    ['list:\n  - a\n  - "b: c"\n  - []\n', 'fast'],
    ['tracks:\n  - name: q\n    readiness: ready\n    entry_point: src/a.ts\n  - name: r\n', 'fast'],
    ['text: |-\n  line one\n\n  line three\nafter: 1\n', 'fast'],
    ['text: |\n  one\n', 'fast'],
    ['text: |+\n  one\n\n\nafter: 1\n', 'fast'],
    ['url: http://example.com/a#b\n', 'fast'],
    ['head: 5b8a5019c949507c8ececc4abbe83cfbd399ff21\n', 'fast'],
    ['nested:\n  deeper:\n    x: z\n', 'fast'],
    ['nested:\n  deeper:\n    x: y\n', 'declined'],
    // Another spelling of the same content: js-yaml reads it (the canonical form is the only fast one).
    ["g: 'it''s'\n", 'declined'],
    ['list:\n- a\n- b\nnext: x\n', 'declined'],
    ['empty:\nnext: 1\n', 'declined'],
    ['a: yes\n', 'declined'],
    ['text: |+\n  one\n\n', 'fast'],
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
    // Each of these was read differently from js-yaml.
    ['guards:\n  - keep tests green  \n', 'declined'],
    ['- foo  \n', 'declined'],
    ['key : v\n', 'declined'],
    ['a: \u3000x\u3000\n', 'declined'],
    ['a: \u00a0x\u00a0\n', 'declined'],
    ['a: 1234e56\n', 'declined'],
    ['a: \u3000\n', 'declined'],
    ['\u3000\n', 'declined'],
  ])('%j is read %s', (text, how) => {
    expect(agrees(text)).toBe(how);
  });

  // Random documents, not only canonical ones: lines put together from the spellings people
  // and tools write (odd blanks, spaced colons, comments, numbers of every form, quotes).
  const word = fc.constantFrom('a', 'key', 'summary', 'guards', 'x y', '1', '-', 'é', 'true', 'null', '~', '<<');
  const blank = fc.constantFrom('', ' ', '  ', '\u3000', '\u00a0', '\t', '\u2028', '\ufeff');
  const atom = fc.constantFrom(
    'foo',
    'keep tests green',
    '1234e56',
    '1e5',
    '0x1F',
    '0o17',
    '1_000',
    '.5',
    '+1',
    '-0',
    '007',
    '12345678',
    'deadbeef1',
    '.inf',
    '.NaN',
    'yes',
    'No',
    'TRUE',
    '~',
    'null',
    "'q''s'",
    '"esc\\tx"',
    '"\\u00e9"',
    '[]',
    '{}',
    '[a, b]',
    '|',
    '|-',
    '>',
    '&a x',
    '*a',
    '!!str 1',
    'a: b',
    'a #c',
    'a#c',
    '# only',
    'http://x/y',
    "it's",
    '"',
    "'",
    '-',
    '- x',
    '? x',
    '%x',
    '@x',
    '`x',
  );
  const scalarText = fc.tuple(blank, atom, blank).map(([a, b, c]) => `${a}${b}${c}`);
  const line = fc.oneof(
    fc.tuple(word, fc.constantFrom(': ', ' : ', ':', ':  '), scalarText).map(([k, sep, v]) => `${k}${sep}${v}`),
    fc.tuple(word, fc.constantFrom(':', ': ', ' :')).map(([k, sep]) => `${k}${sep}`),
    fc.tuple(fc.constantFrom('  ', '', '    '), fc.constantFrom('- ', '-  ', '-'), scalarText).map(([i, d, v]) => `${i}${d}${v}`),
    fc.tuple(fc.constantFrom('  ', '    '), word, fc.constantFrom(': ', ':'), scalarText).map(([i, k, sep, v]) => `${i}${k}${sep}${v}`),
    fc.constantFrom('', '# comment', '  # indented comment', '---', '...', '  line of a block', '\u3000'),
  );
  const lineSoup = fc.tuple(fc.array(line, { minLength: 1, maxLength: 8 }), fc.constantFrom('\n', '', '\n\n')).map(([ls, end]) => ls.join('\n') + end);
  // Canonical renderings, most of them changed in one small way a person or tool might.
  const mutations: ((t: string, at: number) => string)[] = [
    (t) => t,
    (t, at) => t.replace(/\n/g, (m, i) => (i >= at ? '  \n' : m)),
    (t, at) => `${t.slice(0, at)}# note\n${t.slice(at)}`.replace(/^([^\n]*?)# note/, '# note\n$1'),
    (t) => t.replace(': ', ' : '),
    (t) => t.replace(' ', '\u3000'),
    (t) => t.replace(' ', '\u00a0'),
    (t) => t.replace(/: (\S)/, ': $1  '),
    (t) => t.replace(/- (\S)/, '-  $1'),
    (t) => t.replace(/"/g, "'"),
    (t) => t.slice(0, -1),
  ];
  const mutated = fc
    .tuple(
      fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(scalarText, word, fc.array(fc.oneof(scalarText, word), { maxLength: 3 })), {
        minKeys: 1,
        maxKeys: 5,
      }),
      fc.integer({ min: 0, max: mutations.length - 1 }),
      fc.nat(200),
    )
    .map(([doc, m, at]) => mutations[m](toCanonicalYaml(doc), at));
  const randomDoc = fc.oneof(lineSoup, mutated);

  it('reads random documents as js-yaml does, or declines', () => {
    let answered = 0;
    fc.assert(
      fc.property(randomDoc, (text) => {
        let fast: unknown;
        try {
          fast = parseSubset(text);
        } catch (e) {
          if (e instanceof NotInSubset) return;
          throw e;
        }
        answered++;
        let theirs: unknown;
        try {
          theirs = jsYamlDocument(text);
        } catch (e) {
          throw new Error(`the fast reader accepted what js-yaml refuses: ${JSON.stringify(text)} (${(e as Error).message.split('\n')[0]})`);
        }
        expect(fast, JSON.stringify(text)).toEqual(theirs);
      }),
      { numRuns: 1500 },
    );
    // Not vacuous: the fast reader did answer for a good share of them.
    expect(answered).toBeGreaterThan(100);
  });

  it('reads what the emitter writes for random documents, as js-yaml does', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(scalarText, fc.array(scalarText, { maxLength: 3 })), { minKeys: 1, maxKeys: 5 }),
        (doc) => {
          const text = toCanonicalYaml(doc);
          expect(jsYaml(text)).toEqual(doc);
          agrees(text);
        },
      ),
      { numRuns: 500 },
    );
  });

  const scalar = fc.oneof(
    fc.string(),
    fc.string({ unit: 'grapheme' }),
    fc.constantFrom(
      '',
      ' ',
      'a\n',
      '\n',
      'a\n\n',
      ' lead',
      'trail ',
      'x: y',
      '- x',
      '#x',
      'true',
      'null',
      '1',
      '0x1',
      '1e5',
      'a\tb',
      'é ü',
      '你好',
      'line\n  indented\nback',
    ),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
  );
  const value = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: 'small' },
      scalar,
      fc.array(tie('v'), { maxLength: 4 }),
      fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), tie('v'), { maxKeys: 4 }),
    ),
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
