/**
 * `commitAuthor` (src/git/objects.ts), the author read from a commit's header bytes alone
 * for log's provenance, held to the full commit parser on headers built from the lines a
 * commit holds, in any order and number: a second author line, a signature's continuation
 * lines (one that reads like `author ...`), a message after the blank line that names an
 * author, no author at all, names with non-ASCII and invalid UTF-8 bytes.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { commitAuthor, parseCommit } from '../../src/git/objects.js';

const name = fc.constantFrom('Bench', 'Ada Lovelace', 'Zoë Ünal', '', 'a <b', 'x\u00e9', 'tab\tname');
const ident = fc
  .tuple(name, fc.constantFrom('a@example.com', '', 'x@y'), fc.integer({ min: 0, max: 2e9 }), fc.constantFrom('+0000', '-0130', '+0200'))
  .map(([n, e, t, z]) => `${n} <${e}> ${t} ${z}`);
const headerLine = fc.oneof(
  fc.constant('tree 83274238caa51546ecb107e8147d68639421db7a'),
  fc.constant('parent 3d7869018bcff0bc4f0bc9dd531e8b82c9d3ce4d'),
  ident.map((i) => `author ${i}`),
  ident.map((i) => `committer ${i}`),
  fc.constant('gpgsig -----BEGIN SSH SIGNATURE-----\n author Mallory <m@x> 1 +0000\n -----END SSH SIGNATURE-----'),
  fc.constant('authorx Not <an@author> 1 +0000'),
  fc.constant('author garbage without a date'),
);
const bytes = (s: string) => Buffer.from(s, 'utf8');

describe('commitAuthor', () => {
  it('says what parseCommit says of the author, on any header', () => {
    fc.assert(
      fc.property(fc.array(headerLine, { maxLength: 7 }), fc.constantFrom('', '\n\nfix: x\n\nauthor Eve <e@x> 1 +0000\n'), (lines, message) => {
        const data = bytes(lines.join('\n') + message);
        expect(commitAuthor(data)).toEqual(parseCommit(data).author);
        // the header alone, as log's provenance passes it
        const split = data.indexOf('\n\n');
        const header = split < 0 ? data : data.subarray(0, split);
        expect(commitAuthor(header)).toEqual(parseCommit(header).author);
      }),
      { numRuns: 400 },
    );
  });

  it('decodes invalid UTF-8 in a name as the full parser does', () => {
    const data = Buffer.concat([bytes('tree 8327\nauthor A'), Buffer.from([0xc3, 0x28, 0xff]), bytes(' <a@x> 5 +0000\ncommitter C <c@x> 6 +0000\n\nm\n')]);
    expect(commitAuthor(data)).toEqual(parseCommit(data).author);
    expect(commitAuthor(data).name).toContain('\ufffd');
  });
});
