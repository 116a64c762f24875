import { describe, expect, it } from 'vitest';
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
});
