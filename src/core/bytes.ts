/**
 * What text we accept at all (README.md "The handoff (schema 1)"): at most `handoff.maxBytes`
 * (default 1 MiB), no binary bytes, valid UTF-8.
 */
export const DEFAULT_MAX_BYTES = 1024 * 1024;

export type BytesProblem = { kind: 'too-large' | 'binary' | 'invalid-utf8'; message: string };

const decoder = new TextDecoder('utf-8', { fatal: true });

/** NUL and C0 controls other than tab, LF, CR, FF mark binary content. */
const isBinaryByte = (b: number) => b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c;
// The same bytes in decoded text: in UTF-8 they stand only for themselves.
const BINARY_CHAR = /[\x00-\x08\x0b\x0e-\x1f]/;

function binaryProblem(buf: Uint8Array): { problem: BytesProblem } | null {
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i];
    if (isBinaryByte(b)) return { problem: { kind: 'binary', message: `input holds binary data (byte 0x${b.toString(16).padStart(2, '0')} at offset ${i})` } };
  }
  return null;
}

/** Decodes `buf` as handoff text or says why it cannot be one. */
export function decodeText(buf: Uint8Array, maxBytes: number): { text: string } | { problem: BytesProblem } {
  if (buf.length > maxBytes) {
    return { problem: { kind: 'too-large', message: `input is ${buf.length} bytes, over the ${maxBytes}-byte limit (handoff.maxBytes)` } };
  }
  // Decoded first and searched by a regular expression (a byte loop in JavaScript was a
  // tenth of reading 50,000 notes); the bytes are walked only to say where a binary one is,
  // or whether there is one in text that is not UTF-8 (binary is said first).
  let text: string;
  try {
    text = decoder.decode(buf);
  } catch {
    return binaryProblem(buf) ?? { problem: { kind: 'invalid-utf8', message: 'input is not valid UTF-8' } };
  }
  if (BINARY_CHAR.test(text)) return binaryProblem(buf)!;
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { text: text.replace(/\r\n/g, '\n') };
}
