/**
 * What text we accept at all (docs/handoff.md): at most `handoff.maxBytes`
 * (default 1 MiB), no binary bytes, valid UTF-8.
 */
export const DEFAULT_MAX_BYTES = 1024 * 1024;

export type BytesProblem = { kind: 'too-large' | 'binary' | 'invalid-utf8'; message: string };

const decoder = new TextDecoder('utf-8', { fatal: true });

/** NUL and C0 controls other than tab, LF, CR, FF mark binary content. */
const isBinaryByte = (b: number) => b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c;
// The same bytes in decoded text: in UTF-8 they stand only for themselves.
const BINARY_CHAR = /[\x00-\x08\x0b\x0e-\x1f]/;

/** The first binary byte of `buf`, as decodeText reports it; null when there is none. */
export function binaryProblem(buf: Uint8Array): { problem: BytesProblem } | null {
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i];
    if (isBinaryByte(b)) return { problem: { kind: 'binary', message: `input holds binary data (byte 0x${b.toString(16).padStart(2, '0')} at offset ${i})` } };
  }
  return null;
}

/** Decodes `buf` as handoff text or says why it cannot be one. */
export function decodeText(buf: Uint8Array, maxBytes: number): { text: string } | { problem: BytesProblem } {
  const decoded = decodeTextUnsearched(buf, maxBytes);
  if ('text' in decoded && BINARY_CHAR.test(decoded.text)) return binaryProblem(buf)!;
  return decoded;
}

/**
 * decodeText without the search for binary bytes in text that is UTF-8 (the search is most
 * of its cost): for a reader that proves there are none in what it accepts (the fast YAML
 * reader, src/core/fast-yaml.ts, accepts no control character but the line break), which
 * asks `hasBinary` before any other reader reads the text. The text is the same as
 * decodeText's: its BOM and CRs go, neither of them binary.
 */
export function decodeTextUnsearched(buf: Uint8Array, maxBytes: number): { text: string } | { problem: BytesProblem } {
  if (buf.length > maxBytes) {
    return { problem: { kind: 'too-large', message: `input is ${buf.length} bytes, over the ${maxBytes}-byte limit (handoff.maxBytes)` } };
  }
  let text: string;
  try {
    text = decoder.decode(buf);
  } catch {
    // (binary is said first, as it was when the bytes were walked before decoding)
    return binaryProblem(buf) ?? { problem: { kind: 'invalid-utf8', message: 'input is not valid UTF-8' } };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { text: text.replace(/\r\n/g, '\n') };
}

/** Whether decoded text holds a binary byte (in UTF-8 such a byte stands only for itself). */
export function hasBinary(text: string): boolean {
  return BINARY_CHAR.test(text);
}
