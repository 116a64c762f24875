/**
 * The one reader of a note's top-level `branch:` (src/core/front-matter.ts: `topLevelValue`,
 * and `noteBranch` over it) held to js-yaml: on every document js-yaml reads as a mapping,
 * the line reader gives js-yaml's value or says it is unsure, never another value; and
 * `noteBranch` always gives what the full reader does. Documents are built from the
 * fragments that used to fool it: CRLF, a BOM, `branch : x`, anchors, tags, `|-`,
 * multi-line plain scalars, quotes, numbers, comments, the key twice, nested look-alikes.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadAll, CORE_SCHEMA } from 'js-yaml';
import { noteBranch, topLevelValue, UNSURE } from '../../src/core/front-matter.js';
import { toCanonicalYaml } from '../../src/core/canonical.js';
import { stored, toolFields, writeInput } from '../helpers/arbitraries.js';

/** js-yaml's top-level mapping for `text` (the one document, core schema), or null when it reads none. */
function jsYamlMapping(text: string): Record<string, unknown> | null {
  const docs: unknown[] = [];
  try {
    loadAll(text, (d) => docs.push(d), { schema: CORE_SCHEMA });
  } catch {
    return null;
  }
  const d = docs.length === 1 ? docs[0] : null;
  return d && typeof d === 'object' && !Array.isArray(d) ? (d as Record<string, unknown>) : null;
}

const word = fc.constantFrom(
  'main',
  'feature/a-b',
  'yes',
  'on',
  'No',
  'true',
  'False',
  'null',
  '~',
  'Null',
  '123',
  '1.5',
  '.inf',
  '0x1f',
  '-x',
  'a#b',
  'café',
  'x y',
);
const value = fc.oneof(
  word,
  word.map((w) => `${w} # a comment`),
  word.map((w) => `"${w}"`),
  word.map((w) => `'${w}'`),
  fc.constantFrom('"a\\tb"', '"\\u00e9t\\u00e9"', '"bad \\q"', "'it''s'", '"open', "'open", '"a" b', 'a: b', 'a:b', '[]', '{}', '[a, b]', '{a: 1}'),
  word.map((w) => `&anchor ${w}`),
  word.map((w) => `!!str ${w}`),
  fc.constantFrom(
    '!!null',
    '*anchor',
    '|-\n  main',
    '|\n  main\n',
    '>-\n  fold\n  ed',
    'first\n  continued',
    'first\n\n  after a blank',
    '',
    '\n  - a',
    '\n- a',
    '\n  nested: x',
    '"multi\n  line"',
  ),
);
const key = fc.constantFrom('branch', 'branch ', 'branch  ', 'summary', 'status', 'cursor', 'other key', '"branch"', "'branch'", '? branch');
const entry = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(key, value).map(([k, v]) => `${k}:${v.startsWith('\n') || v === '' ? '' : ' '}${v}`) },
  fc.constantFrom(
    '# branch: in a comment',
    'summary: |\n  branch: inside a block\n  more',
    'cursor:\n  branch: nested\n  next_step: "x"',
    'guards:\n- one\n- "two: 2"',
    'summary: "a quoted\n  line that goes on"',
    'summary: a plain\n  line that goes on',
    '---',
    'list: [a,\n  b]',
  ),
);
const document = fc
  .tuple(fc.array(entry, { minLength: 1, maxLength: 6 }), fc.boolean(), fc.boolean(), fc.boolean())
  .map(([entries, bom, crlf, finalNewline]) => {
    let t = entries.join('\n') + (finalNewline ? '\n' : '');
    if (crlf) t = t.replace(/\n/g, '\r\n');
    return (bom ? '\ufeff' : '') + t;
  });

describe('topLevelValue against js-yaml', () => {
  it.each([
    ['summary: x\nbranch: main\n', 'main'],
    ['branch: main\r\nsummary: x\r\n', 'main'],
    ['\ufeffbranch: main\n', 'main'],
    ['branch : main\n', 'main'],
    ['branch: &a main\n', UNSURE],
    ['branch: !!str yes\n', UNSURE],
    ['branch: |-\n  main\n', UNSURE],
    ['branch: feat\n  more\n', UNSURE],
    ['branch: first\nbranch: second\n', UNSURE],
    ['summary: |\n  branch: not this\nother: 1\n', undefined],
    ['branch:x\n', UNSURE],
  ])('%j', (text, expected) => {
    expect(topLevelValue(text, 'branch')).toEqual(expected);
  });

  it('never gives another value than js-yaml, and noteBranch always gives the full reader’s', async () => {
    let answered = 0;
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(document, async (text) => {
        const doc = jsYamlMapping(text);
        if (!doc) return;
        compared++;
        const expected = Object.prototype.hasOwnProperty.call(doc, 'branch') ? doc.branch : undefined;
        const got = topLevelValue(text, 'branch');
        if (got !== UNSURE) {
          answered++;
          expect(got, JSON.stringify(text)).toEqual(expected);
        }
        expect(await noteBranch(text), JSON.stringify(text)).toBe(typeof expected === 'string' ? expected : null);
      }),
      { numRuns: 3000 },
    );
    // the property compared real documents, and the line reader answered many of them
    expect(compared).toBeGreaterThan(500);
    expect(answered).toBeGreaterThan(100);
  });

  it('answers the notes git-handoff writes whose branch is an ordinary name, as js-yaml does (unknown fields of any shape aside)', () => {
    let answered = 0;
    const runs = 300;
    fc.assert(
      fc.property(writeInput, toolFields, fc.constantFrom('main', 'feature/x-1', 'release-2026', null), (input, tool, branch) => {
        const text = toCanonicalYaml(stored(input, { ...tool, branch }) as Record<string, unknown>);
        const got = topLevelValue(text, 'branch');
        if (got === UNSURE) return;
        answered++;
        expect(got).toBe(branch);
      }),
      { numRuns: runs },
    );
    expect(answered).toBeGreaterThan(runs * 0.9);
  });
});
