/**
 * interpretNote reads a note's bytes with the search for binary bytes left to the notes the
 * fast reader declines (src/git/handoff-store.ts); these hold it to the reading it replaced:
 * decodeText, then parseDocument, then checkStored.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { interpretNote } from '../../src/git/note-reading.js';
import { decodeText } from '../../src/core/bytes.js';
import { parseDocument } from '../../src/core/parse.js';
import { checkStored } from '../../src/core/schema.js';
import { toCanonicalYaml } from '../../src/core/canonical.js';

// a note in the clear: shared, and readable by everyone (an age-armoured note is not)
const plain = { visibility: 'shared', readable: true } as const;

async function reference(v: { branch: string | null | undefined }, data: Buffer, maxBytes: number) {
  const bad = (problem: string, text: string | null = null) => ({ ...v, valid: false, problems: [problem], handoff: {}, text, ...plain });
  const decoded = decodeText(data, maxBytes);
  if ('problem' in decoded) return bad(decoded.problem.message.replace(/^input/, 'the note'));
  let value: unknown;
  try {
    value = await parseDocument(decoded.text);
  } catch (e) {
    return bad((e as Error).message, decoded.text);
  }
  const { handoff, problems } = checkStored(value);
  const branch = v.branch === undefined ? (typeof handoff.branch === 'string' ? handoff.branch : null) : v.branch;
  return { ...v, branch, valid: problems.length === 0, problems: problems.map(String), handoff, text: decoded.text, ...plain };
}

describe('interpretNote', () => {
  const value = fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.constantFrom('a\x01b', 'x\x1by', 'tab\there', 'cr\r\nlf', 'ff\x0c', '\ufeffbom'),
    fc.integer(),
    fc.constant(null),
  );
  const doc = fc.record({
    summary: value,
    status: fc.constantFrom('active', 'done', 'bogus'),
    cursor: fc.record({ next_step: value, pending_questions: fc.array(value, { maxLength: 2 }) }),
    branch: fc.option(fc.constantFrom('main', 'feature/x'), { nil: undefined }),
  });
  const edits = [
    (b: Buffer) => b,
    (b: Buffer) => Buffer.concat([b, Buffer.from([0x00])]),
    (b: Buffer) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]),
    (b: Buffer) => Buffer.from(b.toString('latin1').replace(/\n/g, '\r\n'), 'latin1'),
    (b: Buffer) => Buffer.concat([b.subarray(0, 3), Buffer.from([0xc3, 0x28]), b.subarray(3)]),
    (b: Buffer) => Buffer.concat([b.subarray(0, 5), Buffer.from([0x1b]), b.subarray(5)]),
    (b: Buffer) => Buffer.concat([b.subarray(0, 5), Buffer.from([0x0c]), b.subarray(5)]),
    (b: Buffer) => Buffer.concat([Buffer.from('# c\n'), b]),
  ];
  it('reads every note as decodeText, parseDocument and checkStored read it', async () => {
    await fc.assert(
      fc.asyncProperty(
        doc,
        fc.integer({ min: 0, max: edits.length - 1 }),
        fc.constantFrom(null, 'main', undefined),
        fc.constantFrom(64, 4096),
        async (d, e, branch, maxBytes) => {
          const data = edits[e](Buffer.from(toCanonicalYaml(d)));
          const v = { id: 'v', branch };
          expect(await interpretNote(v, data, maxBytes)).toEqual(await reference(v, data, maxBytes));
        },
      ),
      { numRuns: 1500 },
    );
  });
});
