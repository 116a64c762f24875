import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { load, loadAll, CORE_SCHEMA } from 'js-yaml';
import { parseSubset, NotInSubset } from '../../src/core/fast-yaml.js';
import { toCanonicalYaml } from '../../src/core/canonical.js';
import { MAX_DEPTH, nestedDeeperThan } from '../../src/core/parse.js';

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
    // A block the emitter would not write: one line kept without its break, a kept break too few.
    ['text: |-\n  one\n', 'declined'],
    ['text: |+\n  one\n', 'declined'],
    ['text: |\n  one\n\n', 'declined'],
    ['text: |\n   one\n  two\n', 'declined'],
    ['text: |-\n  one\n  \n  two\n', 'declined'],
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

// The reader proves canonicality while it reads, line by line, instead of rendering what it
// read and comparing (src/core/fast-yaml.ts). These hold it to the rendering's answer: it
// accepts a text only when the emitter gives that text back, and accepts every rendering.
describe('fast YAML reader: the proof made while reading', () => {
  /** Keys the reader leaves to js-yaml on purpose (an object orders index keys first; merge and prototype keys). */
  const oddKey = (v: unknown): boolean =>
    v !== null &&
    typeof v === 'object' &&
    (Array.isArray(v) ? v.some(oddKey) : Object.entries(v).some(([k, x]) => /^(0|[1-9][0-9]*)$/.test(k) || k === '__proto__' || k === '<<' || oddKey(x)));

  const text = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.string({ unit: 'grapheme', maxLength: 6 }),
    fc
      .array(
        fc.constantFrom(
          'a',
          ' ',
          '\n',
          ':',
          '-',
          '#',
          '"',
          "'",
          '\\',
          '|',
          '[',
          ']',
          '{',
          '}',
          'é',
          '\u00a0',
          '\u0085',
          '\u2028',
          '\x7f',
          '\x01',
          '1',
          'e',
          'true',
          'null',
        ),
        {
          maxLength: 8,
        },
      )
      .map((a) => a.join('')),
  );
  const leaf = fc.oneof(
    text,
    fc.integer(),
    fc.constantFrom(0, -1, 2 ** 53 - 1, -(2 ** 53) + 1),
    fc.boolean(),
    fc.constant(null),
    fc.constant([]),
    fc.constant({}),
  );
  const tree = fc.letrec((tie) => ({
    v: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('v'), { minLength: 1, maxLength: 3 }), fc.dictionary(text, tie('v'), { minKeys: 1, maxKeys: 3 })),
  })).v;
  const doc = fc.dictionary(text, tree, { minKeys: 1, maxKeys: 5 });

  it('answers for every canonical rendering, with what js-yaml reads', () => {
    let answered = 0;
    fc.assert(
      fc.property(doc, (d) => {
        const t = toCanonicalYaml(d);
        if (/^[ \n]*$/.test(t)) return;
        if (oddKey(d)) return;
        answered++;
        const fast = parseSubset(t);
        expect(fast, JSON.stringify(t)).toEqual(jsYaml(t));
        expect(toCanonicalYaml(fast as Record<string, unknown>)).toBe(t);
      }),
      { numRuns: 600 },
    );
    expect(answered).toBeGreaterThan(300);
  });

  // Canonical renderings with one character inserted, removed or replaced, anywhere.
  const edited = fc
    .tuple(
      doc,
      fc.array(
        fc.tuple(
          fc.nat(),
          fc.constantFrom(0, 1, 2),
          fc.constantFrom(' ', '\n', ':', '-', '"', '\\', '|', '+', '#', 'a', '0', '[', '}', "'", '\u00a0', '\x00', '\x1b', '\x0c'),
        ),
        { minLength: 1, maxLength: 3 },
      ),
    )
    .map(([d, edits]) => {
      let t = toCanonicalYaml(d);
      for (const [at, how, c] of edits) {
        const i = t.length ? at % t.length : 0;
        t = how === 0 ? t.slice(0, i) + c + t.slice(i) : how === 1 ? t.slice(0, i) + t.slice(i + 1) : t.slice(0, i) + c + t.slice(i + 1);
      }
      return t;
    });

  it('accepts an edited rendering only when it is the rendering of what it read', () => {
    let answered = 0;
    fc.assert(
      fc.property(edited, (t) => {
        let fast: unknown;
        try {
          fast = parseSubset(t);
        } catch (e) {
          if (e instanceof NotInSubset) return;
          throw e;
        }
        answered++;
        // decodeTextUnsearched (src/core/bytes.ts) relies on it: what this reader accepts holds no binary byte.
        expect(t).not.toMatch(/[\x00-\x08\x0b\x0e-\x1f]/);
        if (fast === null) return expect(t).toMatch(/^[ \n]*$/);
        expect(toCanonicalYaml(fast as Record<string, unknown>), JSON.stringify(t)).toBe(t);
        expect(fast, JSON.stringify(t)).toEqual(jsYamlDocument(t));
      }),
      { numRuns: 3000 },
    );
    expect(answered).toBeGreaterThan(100);
  });

  // Literal blocks: their header, blank lines and indentation changed.
  const lines = fc.array(fc.constantFrom('one', 'two words', '', '  lead', 'x: y', '- z', '#c', 'é'), { minLength: 1, maxLength: 4 });
  const block = fc.tuple(lines, fc.constantFrom('', '\n', '\n\n', '\n\n\n')).map(([ls, end]) => `${ls.join('\n')}${end}`);
  const blockDoc = fc.tuple(block, fc.boolean(), fc.boolean()).map(([b, inList, after]) => ({
    ...(inList ? { list: [b, { k: b, j: 'v' }] } : { text: b }),
    ...(after ? { after: 1 } : {}),
  }));
  const blockEdits: ((t: string, at: number) => string)[] = [
    (t) => t.replace('|-\n', '|\n'),
    (t) => t.replace('|\n', '|-\n'),
    (t) => t.replace('|+\n', '|\n'),
    (t) => t.replace('|\n', '|+\n'),
    (t) => t.replace('|-\n', '|+\n'),
    (t, at) => t.replace(/\n/g, (m, i) => (i >= at ? '\n\n' : m)),
    (t, at) => t.replace(/\n\n/g, (m, i) => (i >= at ? '\n' : m)),
    (t, at) => t.replace(/\n {2}/g, (m, i) => (i >= at ? '\n   ' : m)),
    (t, at) => t.replace(/\n {4}/g, (m, i) => (i >= at ? '\n  ' : m)),
    (t, at) => t.replace(/\n/g, (m, i) => (i === at ? '\n  \n' : m)),
    (t) => `${t}\n`,
  ];
  it('accepts a changed literal block only when it is the rendering of what it read', () => {
    let answered = 0;
    fc.assert(
      fc.property(blockDoc, fc.integer({ min: 0, max: blockEdits.length - 1 }), fc.nat(60), (d, e, at) => {
        const t = blockEdits[e](toCanonicalYaml(d), at);
        let fast: unknown;
        try {
          fast = parseSubset(t);
        } catch (err) {
          if (err instanceof NotInSubset) return;
          throw err;
        }
        answered++;
        expect(toCanonicalYaml(fast as Record<string, unknown>), JSON.stringify(t)).toBe(t);
        expect(fast, JSON.stringify(t)).toEqual(jsYamlDocument(t));
      }),
      { numRuns: 1500 },
    );
    expect(answered).toBeGreaterThan(50);
  });

  it('declines a document nested deeper than asked, as parse.ts counts depth', () => {
    const nest = (n: number, inner: unknown): Record<string, unknown> => {
      let v: unknown = inner;
      for (let i = 0; i < n; i++) v = i % 2 ? { k: v } : [v];
      return { top: v };
    };
    for (const inner of [[], {}, 'x', [1], { a: 1 }]) {
      for (const n of [60, 62, 63, 64, 65, 66]) {
        const d = nest(n, inner);
        const t = toCanonicalYaml(d);
        const deeper = nestedDeeperThan(d, MAX_DEPTH);
        if (deeper) expect(() => parseSubset(t, MAX_DEPTH)).toThrow(NotInSubset);
        else expect(parseSubset(t, MAX_DEPTH)).toEqual(d);
        expect(parseSubset(t)).toEqual(d);
      }
    }
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
