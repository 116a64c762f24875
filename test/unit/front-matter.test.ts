import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import yaml from 'js-yaml';
import { frontMatterSpan, keyLines, readScalar, topLevelValue, UNSURE } from '../../src/core/front-matter.js';
import { closingFlag, parseFrontMatter } from '../../src/core/sweep.js';
import { parseNextSession, renderNextSession } from '../../src/core/next-session.js';

describe('readScalar: one meaning, YAML 1.2 core as js-yaml reads it', () => {
  it.each([
    ['', null],
    ['~', null],
    ['null', null],
    ['Null', null],
    ['NULL', null],
    ['true', true],
    ['True', true],
    ['TRUE', true],
    ['false', false],
    ['FALSE', false],
    ['yes', 'yes'],
    ['on', 'on'],
    ['no', 'no'],
    ['Off', 'Off'],
    ['tRuE', 'tRuE'],
    ['active', 'active'],
    ['active # a comment', 'active'],
    ['a#b', 'a#b'],
    ['# only a comment', null],
    ['"a: b" # c', 'a: b'],
    ['"yes"', 'yes'],
    ["'it''s'", "it's"],
    ['"tab\\there \\"q\\" \\u00e9 \\x41 \\\\"', 'tab\there "q" é A \\'],
    ['"unterminated', '"unterminated'],
    ['feature/login-page', 'feature/login-page'],
  ])('%j reads as %j', (raw, expected) => {
    expect(readScalar(raw)).toEqual(expected);
  });

  // The forms a hand-written value takes; each is checked against js-yaml itself.
  const value = fc.oneof(
    fc.constantFrom(
      '',
      '~',
      'null',
      'Null',
      'NULL',
      'true',
      'True',
      'TRUE',
      'false',
      'False',
      'yes',
      'no',
      'on',
      'off',
      'Yes',
      'tRuE',
      'nulls',
      'active',
      'High',
      'feature/x',
      'a b',
    ),
    fc.stringMatching(/^[a-z][a-z0-9/_.-]{0,12}$/),
    fc.tuple(fc.constantFrom('active', 'x y', 'yes', 'true'), fc.constantFrom(' # c', '  #c', '\t# c')).map(([v, c]) => v + c),
    fc
      .string({ maxLength: 12 })
      .filter((s) => !/[\n\r\u2028\u2029\u0085]/.test(s))
      .map((s) => JSON.stringify(s)),
    fc.stringMatching(/^[^'\n\r]{0,10}$/).map((s) => `'${s}'`),
  );
  it('agrees with js-yaml on every value that is text, a boolean or null there', () => {
    fc.assert(
      fc.property(value, (raw) => {
        let expected: unknown;
        try {
          expected = (yaml.load(`k: ${raw}\n`) as Record<string, unknown>).k;
        } catch {
          return; // not YAML: nothing to agree with
        }
        if (typeof expected === 'number') return; // numbers stay text here, on purpose
        expect(readScalar(raw.trim())).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });
});

describe('frontMatterSpan and keyLines', () => {
  it.each([
    ['---\na: 1\n---\nbody', { lines: 4, close: 8, body: 13 }],
    ['---  \na: 1\n... \t\nbody', { lines: 6, close: 10, body: 17 }],
    ['---\n---\n', { lines: 4, close: 3, body: 8 }],
    ['---\na: 1\n---', { lines: 4, close: 8, body: 12 }],
  ])('%j', (src, span) => {
    expect(frontMatterSpan(src)).toEqual(span);
  });

  it('finds none without an opening line or a closing one', () => {
    expect(frontMatterSpan('no\n---\n')).toBeNull();
    expect(frontMatterSpan('--- x\n---\n')).toBeNull();
    expect(frontMatterSpan('---\na: 1\n')).toBeNull();
    expect(frontMatterSpan('---\na: 1\n---x\n')).toBeNull();
  });

  it('lists the top-level key lines only', () => {
    const src = '---\ntopic: t\nnested:\n  x: 1\n- item\nk-2: v # c\n---\n';
    const span = frontMatterSpan(src)!;
    expect([...keyLines(src, span.lines, span.close)]).toEqual([
      ['topic', 't'],
      ['nested', ''],
      ['k-2', 'v # c'],
    ]);
  });
});

describe('topLevelValue', () => {
  it.each([
    ['summary: x\nbranch: main\n', 'main'],
    ['branch: "feature/a b" # why\n', 'feature/a b'],
    ['branch: ~\n', null],
    ['branch:\n', null],
    ['branch: yes\n', 'yes'],
    ['summary: |\n  branch: not this\nother: 1\n', undefined],
    ['cursor:\n  branch: nested\n', undefined],
    ['branch: first\nbranch: second\n', UNSURE], // js-yaml refuses a key given twice
  ])('%j', (text, expected) => {
    expect(topLevelValue(text, 'branch')).toEqual(expected);
  });
});

describe('the readers that use it', () => {
  it('the sweep reads closing as a yes/no flag: true, yes and on (any case, unquoted) close a topic', () => {
    expect(['true', 'yes', 'On', 'TRUE', 'tRuE', 'yes # c'].map(closingFlag)).toEqual([true, true, true, true, true, true]);
    expect(['false', 'no', 'OFF'].map(closingFlag)).toEqual([false, false, false]);
    expect(['"yes"', "'true'", 'later', ''].map(closingFlag)).toEqual(['yes', 'true', 'later', null]);
  });

  it('the sweep reads every other key as YAML does', () => {
    expect(parseFrontMatter('---\ntopic: yes\nstatus: active\nfidelity: Null\n---\n')!.data).toEqual({ topic: 'yes', status: 'active', fidelity: null });
  });

  it('NEXT_SESSION.md front matter is read the same way (comments, quotes, nulls)', () => {
    const p = parseNextSession('\uFEFF---\r\n_last_updated_: 2026-01-01 # day\r\nsession_id: "s \\u00e9"\r\nwork_item: ~\r\n---\r\n# Next session handoff\r\n');
    expect(p.lastUpdated).toBe('2026-01-01');
    expect(p.handoff.session_id).toBe('s é');
    expect(p.handoff.work_item).toBeUndefined();
  });

  it('the NEXT_SESSION.md writer quotes what that reader would not read back as written', () => {
    for (const id of ['a ', 'yes', 'Null', 'x # y', 'plain-id_1']) {
      expect(parseNextSession(renderNextSession({ session_id: id }, '2026-01-01T00:00:00Z')).handoff.session_id).toBe(id);
    }
  });
});
