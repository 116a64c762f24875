import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeywordIndex } from '../../src/core/keyword-index.js';
import { nameWords, nameWordsByRules } from '../../src/core/secret-assignments.js';
import { scanText, scanTextLineByLine } from '../../src/core/secrets.js';
import { compileAllow } from '../../src/core/secret-fields.js';
import { positives, prose } from '../helpers/secret-corpus.js';

// The scanner's fast paths against their plain definitions, on varied input. The keyword pass
// (one automaton over the whole text, lines found from its hits) is a prefilter: it must
// choose exactly the lines and rules that a plain search of each line would. A name's words
// are found by one walk where the definition takes three regular expressions.
const runs = (n: number) => (process.env.SOAK ? { numRuns: Number(process.env.SOAK) } : { numRuns: n, seed: 4711 });

/** What the automaton must find: every occurrence, by end, the longer keyword first at one end. */
function naiveHits(keywords: string[], text: string): number[] {
  const low = text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const found: [number, number][] = [];
  keywords.forEach((k, id) => {
    const kl = k.toLowerCase();
    for (let at = low.indexOf(kl); at >= 0; at = low.indexOf(kl, at + 1)) found.push([id, at + kl.length]);
  });
  found.sort((a, b) => a[1] - b[1] || keywords[b[0]].length - keywords[a[0]].length || a[0] - b[0]);
  return found.flat();
}

function indexHits(index: KeywordIndex, text: string): number[] {
  const n = index.scanInto(text); // first: a scan may replace `hits` with a larger buffer
  return Array.from(index.hits.subarray(0, 2 * n));
}

describe('the keyword automaton', () => {
  const alphabet = ['a', 'b', 'A', 'B', 'c', '-', '_', ' ', ':', '.', '\n', 'x', 'İ', 'K', 'é'];
  const keyword = fc.array(fc.constantFrom('a', 'b', 'A', 'c', '-', '_', ' ', ':', '.'), { minLength: 1, maxLength: 6 }).map((cs) => cs.join(''));

  it('finds what a plain search finds, overlapping occurrences and case included', () => {
    fc.assert(
      fc.property(fc.array(keyword, { minLength: 1, maxLength: 25 }), fc.array(fc.constantFrom(...alphabet), { maxLength: 300 }), (keywords, chars) => {
        const index = new KeywordIndex(keywords);
        const text = chars.join('');
        expect(indexHits(index, text)).toEqual(naiveHits(keywords, text));
      }),
      runs(300),
    );
  });

  it('grows its hit buffer past its first size and reuses it between calls', () => {
    const index = new KeywordIndex(['a', 'aa', 'AAA']);
    const text = 'a'.repeat(12_000); // 36,000 occurrences: more than the first buffer holds
    const got = indexHits(index, text);
    const want = naiveHits(['a', 'aa', 'AAA'], text);
    expect(got.length).toBe(want.length);
    expect(got.every((v, i) => v === want[i])).toBe(true);
    expect(indexHits(index, 'xaax')).toEqual([0, 2, 1, 3, 0, 3]);
    expect(index.scanInto('')).toBe(0);
  });

  it('finds every keyword of the scanner in a text made of them', () => {
    const keywords = ['token', 'Token ', 'ok', 'to', '-----begin', 'key', 'monkey', 'ey'];
    const text = 'TOKEN okay; monkey-----BEGIN Token  keys\ntoken';
    expect(indexHits(new KeywordIndex(keywords), text)).toEqual(naiveHits(keywords, text));
  });
});

describe('the scanner against its line-by-line path', () => {
  const lines = prose();
  const pos = [...positives(7), ...positives(8, 1, 1)].map((p) => p.text);
  const bits = [
    'token',
    'TOKEN',
    'password',
    'Passwd',
    'secret',
    'api_key',
    'apiKey',
    'Authorization: Bearer ',
    'bearer ',
    'Basic ',
    'curl -u ',
    '--user ',
    '--password ',
    'https://',
    'user:',
    '@host',
    ' = ',
    '=',
    ': ',
    ' is ',
    ' was ',
    ' => ',
    ':=',
    '"',
    "'",
    '`',
    '<password>',
    '</password>',
    '${',
    '}',
    ' ',
    '\t',
    '\n',
    '\r\n',
    '\n\n',
    '_',
    '-',
    '.',
    'İ',
    'K',
    '\u00a0',
    'ſecret',
    'kind: Secret\ndata:\n  key: ',
    '-----BEGIN PRIVATE KEY-----\n',
    'c2VjcmV0LXZhbHVlLWhlcmUtMTIzNDU2Nzg5MA==',
    'Zx81kQp2Lm7RvT4wYb9N',
    'hunter2hunter2',
    'changeme',
  ];
  const fragment = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...bits) },
    { weight: 2, arbitrary: fc.constantFrom(...lines) },
    { weight: 2, arbitrary: fc.constantFrom(...pos) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
  const doc = fc.array(fragment, { maxLength: 40 }).map((fs) => fs.join(''));

  it('reports the same hits on varied documents', () => {
    fc.assert(
      fc.property(doc, (text) => {
        expect(scanText(text)).toEqual(scanTextLineByLine(text));
      }),
      runs(400),
    );
  });

  it('reports the same hits with an allow list', () => {
    const allow = compileAllow(['^hunter', 'EXAMPLE', 'c2Vj']);
    fc.assert(
      fc.property(doc, (text) => {
        expect(scanText(text, allow)).toEqual(scanTextLineByLine(text, allow));
      }),
      runs(100),
    );
  });

  it('reports the same hits on the whole corpus as one document, and finds them', () => {
    const text = [...pos, ...lines].join('\n');
    const hits = scanText(text);
    expect(hits.length).toBeGreaterThan(pos.length / 2);
    expect(hits).toEqual(scanTextLineByLine(text));
    const crlf = pos.join('\r\n');
    expect(scanText(crlf)).toEqual(scanTextLineByLine(crlf));
  });
});

describe('the words of a name', () => {
  const piece = fc.constantFrom('a', 'b', 'z', 'A', 'B', 'Z', '0', '9', '_', '-', '.', '$', ' ', 'Token', 'API', 'KEY', 'HTTPServer', 'my', 'İ', 'K', 'é', 'ß');

  it('are what the regular expressions of the definition find', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (ps) => {
        const name = ps.join('');
        expect(nameWords(name)).toEqual(nameWordsByRules(name));
      }),
      runs(2000),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (name) => {
        expect(nameWords(name)).toEqual(nameWordsByRules(name));
      }),
      runs(500),
    );
  });

  it('split camel case, runs of capitals and separators', () => {
    expect(nameWords('mySecretString')).toEqual(['my', 'secret', 'string']);
    expect(nameWords('DB_PASSWORD')).toEqual(['db', 'password']);
    expect(nameWords('HTTPServerKey2')).toEqual(['http', 'server', 'key2']);
    expect(nameWords('aB1C')).toEqual(['a', 'b1', 'c']);
    expect(nameWords('--x.y$z')).toEqual(['x', 'y', 'z']);
    expect(nameWords('')).toEqual([]);
  });
});
