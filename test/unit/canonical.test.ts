import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as yaml from 'js-yaml';
import { toCanonicalYaml, quote, plainOk, plainOkByPattern } from '../../src/core/canonical.js';
import { normalizeInput, withDefaults } from '../../src/core/schema.js';

const load = (text: string) => yaml.load(text, { schema: yaml.CORE_SCHEMA });
/** What `write` stores: input normalized, defaults filled, canonical YAML. */
const stored = (input: Record<string, unknown>) => {
  const r = normalizeInput(input);
  expect(r.problems).toEqual([]);
  return toCanonicalYaml(withDefaults(r.handoff) as Record<string, unknown>);
};

describe('canonical YAML', () => {
  it('writes keys in schema order, unknown keys after them in input order', () => {
    const text = stored({
      zulu: 1,
      guards: ['g'],
      alpha: 'a',
      summary: 's',
      status: 'paused',
      cursor: { next_step: 'go on', extra: true, last_discussed: 'l' },
    });
    const top = text
      .split('\n')
      .filter((l) => /^\S/.test(l))
      .map((l) => l.split(':')[0]);
    expect(top).toEqual([
      'schema',
      'status',
      'summary',
      'cursor',
      'soft_context',
      'open_tracks',
      'ask_user',
      'guards',
      'memory_updates',
      'continuation_refs',
      'consolidation',
      'zulu',
      'alpha',
    ]);
    expect(text).toContain('cursor:\n  last_discussed: l\n  pending_questions: []\n  next_step: go on\n  extra: true\n');
  });

  it('is UTF-8 text with LF line ends and one trailing newline', () => {
    const text = stored({ summary: 'line one\r\nline two\n', guards: ['ünïcödé 中文 😀'] });
    expect(text.endsWith('\n')).toBe(true);
    expect(text.endsWith('\n\n')).toBe(false);
    expect(text).not.toMatch(/\r(?!\\)/);
    expect(text).toContain('ünïcödé 中文 😀');
    expect((load(text) as any).summary).toBe('line one\r\nline two\n');
  });

  it('gives the same bytes for the same content, whatever the input order or spelling', () => {
    const a = stored({ summary: 's', status: 'active', guards: ['x', 'y'], custom: { b: 1 } });
    const b = stored({ custom: { b: 1 }, guards: ['x', 'y'], status: 'active', summary: 's' });
    const c = stored(JSON.parse('{"status":"active","summary":"s","custom":{"b":1},"guards":["x","y"]}'));
    expect(b).toBe(a);
    expect(c).toBe(a);
  });

  it('keeps empty lists and mappings as [] and {}', () => {
    expect(toCanonicalYaml({ a: [], b: {}, c: [[], {}] })).toBe('a: []\nb: {}\nc:\n  - []\n  - {}\n');
  });

  it.each([
    ['true', '"true"'],
    ['null', '"null"'],
    ['~', '"~"'],
    ['', '""'],
    ['123', '"123"'],
    ['1.5', '"1.5"'],
    ['2026-01-01', '"2026-01-01"'],
    ['a: b', '"a: b"'],
    ['a #b', '"a #b"'],
    ['- item', '"- item"'],
    ['trailing ', '"trailing "'],
    ['tab\there', '"tab\\there"'],
    ['plain words, with punctuation (ok)!', 'plain words, with punctuation (ok)!'],
    ['abcdef1234567', 'abcdef1234567'],
    ['1234567', '"1234567"'],
  ])('spells the scalar %j as %s', (value, spelled) => {
    expect(toCanonicalYaml({ k: value })).toBe(`k: ${spelled}\n`);
    expect(load(toCanonicalYaml({ k: value }))).toEqual({ k: value });
  });

  it('writes multi-line text as a literal block and reads it back exactly', () => {
    for (const s of ['one\ntwo', 'one\ntwo\n', 'one\n\ntwo\n\n\n', 'a\n  indented\nb']) {
      const text = toCanonicalYaml({ summary: s, list: [s], nested: { s } });
      expect(text).toContain('summary: |');
      expect(load(text)).toEqual({ summary: s, list: [s], nested: { s } });
    }
  });

  it('escapes control characters and line separators', () => {
    expect(quote('a\u0000b\u2028c\u0085')).toBe('"a\\u0000b\\u2028c\\u0085"');
    const v = { k: 'x\u0007y', l: 'bom\ufeff' };
    expect(load(toCanonicalYaml(v))).toEqual(v);
  });
});

// Strings made of the characters YAML gives meaning to, plus ordinary and wide text.
const TRICKY = [
  'a',
  'Z',
  '_',
  '0',
  '7',
  ' ',
  '\n',
  '\t',
  '\r',
  '"',
  "'",
  '#',
  ':',
  '-',
  '?',
  '|',
  '>',
  '!',
  '&',
  '*',
  '%',
  '@',
  '`',
  '{',
  '}',
  '[',
  ']',
  ',',
  '\\',
  '.',
  '~',
  '=',
  '\u0085',
  '\u2028',
  '\ufeff',
  '\u00a0',
  'é',
  '中',
  '😀',
  '\u0000',
  '\u007f',
];
const WORDS = [
  'true',
  'False',
  'null',
  'NULL',
  '~',
  'yes',
  'NO',
  'on',
  '.nan',
  '.inf',
  '-.Inf',
  '1e3',
  '0x1f',
  '0o7',
  '12:30',
  '2026-01-01',
  '- a',
  '? x',
  '',
  ' lead',
  'trail ',
  'a: b',
  'a #b',
  '#c',
  '0',
  '-1',
  '+1',
  '1_000',
  'deadbeef12',
  '1234567',
  '12345e7',
];
const trickyString = fc.oneof(
  fc.constantFrom(...WORDS),
  fc.array(fc.constantFrom(...TRICKY), { maxLength: 12 }).map((cs) => cs.join('')),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ maxLength: 20 }),
);
const scalar = fc.oneof(
  trickyString,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
  fc.boolean(),
  fc.constant(null),
);
const key = trickyString.filter((k) => k !== '__proto__');
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('list'), tie('map')),
  list: fc.array(tie('value'), { maxLength: 4 }),
  map: fc.dictionary(key, tie('value'), { maxKeys: 4 }),
}));
const strings = fc.array(trickyString, { maxLength: 4 });
const handoffLike = fc.record(
  {
    session_id: trickyString,
    status: fc.constantFrom('active', 'paused', 'done'),
    summary: trickyString,
    cursor: fc.record(
      { last_discussed: trickyString, pending_questions: fc.array(trickyString, { maxLength: 3 }), next_step: trickyString },
      { requiredKeys: [] },
    ),
    soft_context: fc.record({ tone: trickyString, notes: strings }, { requiredKeys: [] }),
    open_tracks: fc.array(fc.record({ name: trickyString.filter(Boolean), readiness: trickyString, entry_point: trickyString }), { maxLength: 3 }),
    guards: strings,
    ask_user: strings,
    memory_updates: strings,
    continuation_refs: strings,
    mid_task: fc.record({ slug: trickyString, where_stopped: trickyString }),
    extra: value,
    [`x-${'custom'}`]: value,
  },
  { requiredKeys: [] },
);

describe('canonical YAML, property: any handoff-like value reads back equal', () => {
  it('toCanonicalYaml -> js-yaml (core schema) gives back the value', () => {
    fc.assert(
      fc.property(handoffLike, fc.dictionary(key, value, { maxKeys: 5 }), (h, unknown) => {
        const doc = { ...unknown, ...h } as Record<string, unknown>;
        const text = toCanonicalYaml(doc);
        expect(load(text)).toEqual(doc);
        expect(text.endsWith('\n')).toBe(true);
        expect(text.includes('\r')).toBe(false);
      }),
      { numRuns: 1500 },
    );
  });

  it('normalized input stores the same bytes twice and reloads to the normalized handoff', () => {
    fc.assert(
      fc.property(handoffLike, (h) => {
        const r = normalizeInput(h);
        fc.pre(r.problems.length === 0);
        const full = withDefaults(r.handoff) as Record<string, unknown>;
        const text = toCanonicalYaml(full);
        const again = normalizeInput(load(text));
        expect(again.problems).toEqual([]);
        expect(toCanonicalYaml(withDefaults(again.handoff) as Record<string, unknown>)).toBe(text);
      }),
      { numRuns: 500 },
    );
  });
});

describe('plainOk, judged in one pass', () => {
  it('answers as the patterns do, on random and exhaustive short text', () => {
    const chars = ['a', 'e', 'f', 'g', 'Z', '_', '0', '7', ' ', ':', '#', '-', '.', '"', "'", '\\', '\t', '\n', '\x7f', 'é', '~', '+', '[', '|', ','];
    const all: string[] = [''];
    for (let len = 1; len <= 3; len++) for (const prefix of all.filter((x) => x.length === len - 1)) for (const c of chars) all.push(prefix + c);
    for (const s of all) expect(plainOk(s), JSON.stringify(s)).toBe(plainOkByPattern(s));
    for (const s of [
      'true',
      'TRUE',
      'Null',
      'nULL',
      'False',
      'falsey',
      'yes',
      'Off',
      'on',
      'y',
      'n',
      'deadbee',
      'eeeeeee',
      '1234567',
      '123456a',
      'e'.repeat(64),
      'a'.repeat(65),
      'ab:cd',
      'a: b',
      'a #b',
      'a#b',
      'a:',
      'a ',
    ]) {
      expect(plainOk(s), JSON.stringify(s)).toBe(plainOkByPattern(s));
    }
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary-ascii', maxLength: 70 }),
          fc.array(fc.constantFrom(...chars), { maxLength: 12 }).map((a) => a.join('')),
          fc.stringMatching(/^[0-9a-f]{1,70}$/),
        ),
        (s) => {
          expect(plainOk(s), JSON.stringify(s)).toBe(plainOkByPattern(s));
        },
      ),
      { numRuns: 5000 },
    );
  });
});
