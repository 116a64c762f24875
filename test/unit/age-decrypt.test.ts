/**
 * Decrypting many notes (log --json over 5,000 encrypted versions) costs the X25519 of each
 * note, not an import of the user's secret key for each: age-encryption, given the key as a
 * string, imports it into WebCrypto again on every file (which derives its public key each
 * time), most of the time log took. src/core/age.ts imports it once per set of keys (after
 * a first note decrypted as before: show decrypts one, and importing would cost it more).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decryptArmored, encryptArmored, newIdentity } from '../../src/core/age.js';

describe('decryptArmored', () => {
  afterEach(() => vi.restoreAllMocks());

  it('imports the secret key once for many notes, and each note still decrypts to its own text', async () => {
    const me = await newIdentity();
    const other = await newIdentity();
    const notes = await Promise.all(Array.from({ length: 12 }, (_, i) => encryptArmored(`summary: note ${i}\n`, [me.recipient])));
    const foreign = await encryptArmored('summary: not for me\n', [other.recipient]);
    const importKey = vi.spyOn(globalThis.crypto.subtle, 'importKey');
    const privateImports = () => importKey.mock.calls.filter((c) => c[0] === 'pkcs8').length;
    const texts = [];
    // the first note with the key as a string (the library imports it for that note), the second imports it once
    for (const n of notes.slice(0, 2)) texts.push(await decryptArmored(n, [me.secret]));
    const imported = privateImports();
    for (const n of notes.slice(2)) texts.push(await decryptArmored(n, [me.secret]));
    expect(await decryptArmored(foreign, [me.secret])).toEqual({ kind: 'not-for-you' });
    expect(texts).toEqual(notes.map((_, i) => ({ text: `summary: note ${i}\n` })));
    expect(privateImports()).toBe(imported);
  });

  it('a second key set gets its own import; a damaged note is still damaged', async () => {
    const a = await newIdentity();
    const b = await newIdentity();
    const forB = await encryptArmored('summary: b\n', [b.recipient]);
    expect(await decryptArmored(forB, [a.secret])).toEqual({ kind: 'not-for-you' });
    expect(await decryptArmored(forB, [a.secret, b.secret])).toEqual({ text: 'summary: b\n' });
    // a character of the payload changed (the last line of base64 before the end line)
    const lines = forB.trimEnd().split('\n');
    const at = lines.length - 2;
    lines[at] = lines[at].replace(/^./, lines[at][0] === 'A' ? 'B' : 'A');
    const cut = lines.join('\n');
    const r = await decryptArmored(cut, [b.secret]);
    expect('kind' in r && r.kind).toBe('damaged');
  });
});
