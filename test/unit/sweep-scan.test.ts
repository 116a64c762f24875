import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readTopic, summarizeTopic, type TopicSummary } from '../../src/core/sweep.js';
import { scanActiveTopic } from '../../src/core/sweep-scan.js';

/** The definition the scanner must agree with: readTopic, only for status: active. */
function reference(text: string): TopicSummary | null {
  const t = readTopic(text);
  return t && t.data.status === 'active' ? summarizeTopic(t) : null;
}

const topicFile = (head: string[], body: string[]) => `---\n${head.join('\n')}\n---\n${body.join('\n')}`;

describe('scanActiveTopic', () => {
  it.each([
    [
      'two dated entries',
      topicFile(
        ['topic: parser', 'status: active', 'fidelity: High'],
        ['', '## 2026-01-01T10:00:00Z first', 'body', '', '## 2026-01-01T11:00:00Z second', 'body', ''],
      ),
    ],
    ['undated and dated', topicFile(['status: active'], ['## decided the API', '## 2026-03-01 11:50 parser', '## 2026-03-01T13:50+02:00 — in Berlin'])],
    ['headings in fences do not count', topicFile(['status: active'], ['## one', '```md', '## not an entry', '```', '~~~', '## nor this', '~~~', '## two'])],
    ['a longer fence closes only with as long a run', topicFile(['status: active'], ['````', '```', '## inside', '````', '## outside'])],
    ['an unclosed fence runs to the end', topicFile(['status: active'], ['## before', '  ~~~', '## inside'])],
    ['a fence marker inside a line is text', topicFile(['status: active'], ['x ```', '## counted'])],
    ['closing hashes and a hash in the text', topicFile(['status: active'], ['## two ##', '## fix #12', '## #', '##  #', '### deeper', '##three'])],
    ['indentation', topicFile(['status: active'], [' ## one space', '   ## three', '    ## four: code'])],
    ['quoted values, comments, booleans', topicFile(['topic: "a: b" # c', "status: 'active'", 'closing: yes', 'fidelity: High # why'], ['## x'])],
    ['the last of a repeated key wins', topicFile(['status: closed', 'status: active', 'topic: a', 'topic: b'], ['## x'])],
    ['BOM and CRLF', '\uFEFF---\r\nstatus: active\r\n---\r\n## 2026-01-01T10:00:00Z a\r\n## b\r\n'],
    ['a lone CR goes to the definition', '---\nstatus: active\n---\n## a\rb\n## 2026-01-01T10:00:00Z\r\n'],
    ['U+2028 goes to the definition', '---\nstatus: active\n---\n## a\u2028#\n'],
    ['closing with dots and trailing blanks', '---  \nstatus: active\n... \t\n## a'],
    ['empty front matter', '---\n---\n## a'],
    [
      'times that are not times',
      topicFile(
        ['status: active'],
        [
          '## 2026-13-45T99:99:00Z',
          '## 2026-01-01T24:00:00Z',
          '## 2026-01-01T10:00:00Zx',
          '## 2026-01-01T10:00:00+0200',
          '## \t2026-01-01T10:00:00Z tab',
          '## 2026-01-01T10:00:00.123456Z',
        ],
      ),
    ],
  ])('%s: as the definition reads it', (_name, text) => {
    expect(scanActiveTopic(text)).toEqual(reference(text));
  });

  it('answers null for no front matter, no close, or another status', () => {
    expect(scanActiveTopic('# no front matter\n## 2026-01-01T00:00Z\n')).toBeNull();
    expect(scanActiveTopic('---\nstatus: active\n')).toBeNull();
    expect(scanActiveTopic(topicFile(['status: closed'], ['## a']))).toBeNull();
    expect(scanActiveTopic(topicFile(['topic: x'], ['## a']))).toBeNull();
  });

  it('counts entries, undated ones and the newest time', () => {
    const s = scanActiveTopic(
      topicFile(['status: active', 'topic: t'], ['## 2026-01-01T10:00:00Z a', '## undated', '## 2026-01-02 b', '```', '## 2027-01-01T00:00:00Z fenced', '```']),
    );
    expect(s).toEqual({ data: { status: 'active', topic: 't' }, entries: 3, undated: 1, newest: Date.parse('2026-01-02T00:00Z') });
  });
});

// Random topic files built from the pieces that matter, with the odd character in between.
const dates = [
  '2026-03-01T11:50:00Z',
  '2026-03-01T11:50:00.250Z',
  '2026-03-01T11:50:30+02:00',
  '2026-03-01T11:50-0500',
  '2026-03-01 11:50',
  '2026-03-01',
  '2026-02-31T10:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-01-01T24:00:00Z',
  '0001-01-01T00:00:00Z',
  '20260301T1150',
];
const words = ['', 'x', 'first', 'decided the API', '—', ', then', ': a', ') b', '-', 'Z', '#', '##', '#12', '\u00a0', '\t', ' ', '```', '~~~'];
const headLine = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('status', 'topic', 'fidelity', 'closing', 'other', 'status ', ' status', '_k-1'),
      fc.constantFrom(':', ': ', ':\t', ' :'),
      fc.constantFrom(
        'active',
        'closed',
        '"active"',
        "'active'",
        'active # c',
        'active  ',
        'High',
        'light',
        'true',
        'yes',
        'no',
        '~',
        'null',
        '',
        '"a # b" # c',
        "'it''s'",
        'a\\"b',
      ),
    )
    .map(([k, sep, v]) => `${k}${sep}${v}`),
  fc.constantFrom('nested:', '  x: 1', '- item', ''),
);
const bodyLine = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(
        fc.constantFrom('', ' ', '   ', '    ', '\t'),
        fc.constantFrom('## ', '##  ', '##', '### ', '# '),
        fc.constantFrom('', '', '', '\t', '\u00a0', ' '),
        fc.constantFrom('', ...dates),
        fc.constantFrom(...words),
        fc.constantFrom('', ' ', ' ##', ' #', '\t'),
      )
      .map((p) => p.join('')),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom('', ' ', '   ', '    '), fc.constantFrom('```', '````', '~~~', '~~~~', '``', '`~~'), fc.constantFrom('', 'md', ' ', ' x ```', '`'))
      .map((p) => p.join('')),
  },
  { weight: 2, arbitrary: fc.constantFrom('', 'text', 'see `code`', '---', '...', 'a ## b', 'status: active') },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
const odd = fc.constantFrom('\r', '\u2028', '\u2029', '\uFEFF', '\u00a0', '\t', '#', '`', '~', '\n');
/** Up to three odd characters put in at random places. */
const sprinkle = (text: string, extra: [number, string][]) => extra.reduce((t, [n, c]) => ((n %= t.length + 1), t.slice(0, n) + c + t.slice(n)), text);
const oddOnes = fc.array(fc.tuple(fc.nat(), odd), { maxLength: 3 });
const topicText = fc
  .tuple(
    fc.constantFrom('', '\uFEFF'),
    fc.constantFrom('---', '---  ', '---\t', '--- x', '----'),
    fc.array(headLine, { maxLength: 6 }),
    fc.constantFrom('---', '...', '--- ', '---x', '', '----'),
    fc.array(bodyLine, { maxLength: 14 }),
    fc.constantFrom('\n', '\r\n'),
    oddOnes,
  )
  .map(([bom, open, head, close, body, nl, extra]) => bom + sprinkle([open, ...head, close, ...body].join(nl), extra));
const activeText = fc
  .tuple(fc.array(headLine, { maxLength: 4 }), fc.array(bodyLine, { maxLength: 20 }), fc.constantFrom('\n', '\r\n'), oddOnes)
  .map(([head, body, nl, extra]) => {
    const front = ['---', ...head, 'status: active', '---', ''].join(nl);
    return front + sprinkle(body.join(nl), extra);
  });

describe('scanActiveTopic agrees with readTopic (property)', () => {
  it('on random topic files: fences, BOMs, CRLF, headings with and without dates', () => {
    fc.assert(
      fc.property(topicText, (text) => {
        expect(scanActiveTopic(text)).toEqual(reference(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('on random topic files that are active, so the entries are compared', () => {
    fc.assert(
      fc.property(activeText, (text) => {
        const want = reference(text);
        expect(want).not.toBeNull();
        expect(scanActiveTopic(text)).toEqual(want);
      }),
      { numRuns: 3000 },
    );
  });

  it('on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 40 }), (a, b) => {
        for (const text of [a, `---\nstatus: active\n---\n${a}`, `---\nstatus: active\n---\n${b}`]) expect(scanActiveTopic(text)).toEqual(reference(text));
      }),
      { numRuns: 2000 },
    );
  });
});
