/**
 * Tree entry names are bytes: whatever git stored (Latin-1 file names, cut UTF-8), a tree
 * parsed and serialized again is the same bytes, and a UTF-8 name is the string it spells.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeName, nameBytes, parseTree, serializeTree } from '../../src/git/objects.js';

const OID = 'e69de29bb2d1d6434b8b29ae775ad8c2e48cd391';
const entry = (name: Buffer, mode = '100644') => Buffer.concat([Buffer.from(`${mode} `), name, Buffer.from([0]), Buffer.from(OID, 'hex')]);

describe('tree entry names', () => {
  it('a name that is not UTF-8 (caf\\xe9.txt) comes back byte for byte', () => {
    const raw = Buffer.from('caf\xe9.txt', 'latin1');
    const tree = entry(raw);
    const [e] = parseTree(tree);
    expect(nameBytes(e.name)).toEqual(raw);
    expect(serializeTree(parseTree(tree))).toEqual(tree);
  });

  it('UTF-8 names, a real U+FFFD included, are the strings they spell', () => {
    for (const name of ['café.txt', 'a\uFFFDb', '日本語', '😀.md', 'receipts']) {
      const b = Buffer.from(name, 'utf8');
      expect(decodeName(b, 0, b.length)).toBe(name);
      expect(nameBytes(name)).toEqual(b);
    }
  });

  it('any bytes round-trip, and sort in git order (bytewise)', () => {
    const nameArb = fc.uint8Array({ minLength: 1, maxLength: 12 }).map((a) => Buffer.from(a.map((x) => (x === 0 || x === 0x2f ? 0x41 : x))));
    fc.assert(
      fc.property(fc.uniqueArray(nameArb, { minLength: 1, maxLength: 6, selector: (b) => b.toString('hex') }), (names) => {
        const sorted = [...names].sort(Buffer.compare);
        const tree = Buffer.concat(sorted.map((n) => entry(n)));
        const parsed = parseTree(tree);
        parsed.forEach((e, i) => expect(nameBytes(e.name)).toEqual(sorted[i]));
        expect(serializeTree([...parsed].reverse())).toEqual(tree);
      }),
      { numRuns: 500 },
    );
  });
});
