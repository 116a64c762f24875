import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeText } from '../../src/core/bytes.js';

describe('decodeText', () => {
  it('accepts UTF-8 text, dropping a BOM and turning CRLF into LF', () => {
    expect(decodeText(Buffer.from('\ufeffsummary: é\r\nstatus: done\r\n'), 100)).toEqual({ text: 'summary: é\nstatus: done\n' });
  });

  it.each([
    ['over the size limit', Buffer.alloc(11, 0x61), 'too-large', /11 bytes, over the 10-byte limit \(handoff.maxBytes\)/],
    ['a NUL byte', Buffer.from('a\u0000b'), 'binary', /binary data \(byte 0x00 at offset 1\)/],
    ['an escape byte', Buffer.from('a\u001bb'), 'binary', /byte 0x1b/],
    ['invalid UTF-8', Buffer.from([0x61, 0xc3, 0x28]), 'invalid-utf8', /not valid UTF-8/],
  ])('refuses input %s', (_n, buf, kind, message) => {
    const r = decodeText(buf, 10);
    expect('problem' in r && r.problem.kind).toBe(kind);
    expect('problem' in r && r.problem.message).toMatch(message);
  });

  it('accepts exactly the limit, tabs and form feeds', () => {
    expect(decodeText(Buffer.from('a\tb\fc'), 5)).toEqual({ text: 'a\tb\fc' });
  });

  // The byte-by-byte rule as it was written first: the decoder's native search must give the same answers.
  const reference = (buf: Uint8Array, maxBytes: number) => {
    if (buf.length > maxBytes) return decodeText(buf, maxBytes);
    for (let i = 0; i < buf.length; i++) {
      const b = buf[i];
      if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) {
        return { problem: { kind: 'binary', message: `input holds binary data (byte 0x${b.toString(16).padStart(2, '0')} at offset ${i})` } };
      }
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
    } catch {
      return { problem: { kind: 'invalid-utf8', message: 'input is not valid UTF-8' } };
    }
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return { text: text.replace(/\r\n/g, '\n') };
  };

  it('answers as a walk over every byte does, on random bytes and text', () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 40 }),
      fc
        .array(fc.constantFrom(0x00, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b, 0x1f, 0x20, 0x61, 0x7f, 0xc3, 0xa9, 0x28, 0xef, 0xbb, 0xbf, 0xff), {
          maxLength: 40,
        })
        .map((a) => Uint8Array.from(a)),
      fc.string({ unit: 'binary', maxLength: 30 }).map((t) => new TextEncoder().encode(t)),
    );
    fc.assert(
      fc.property(bytes, (buf) => {
        expect(decodeText(buf, 32)).toEqual(reference(buf, 32));
      }),
      { numRuns: 3000 },
    );
  });
});
