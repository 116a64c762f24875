/**
 * The age bundle as built (scripts/build.mjs): its post-quantum and P-256 parts load on first
 * use behind stand-ins, so a hybrid (ML-KEM) identity must still encrypt and decrypt through
 * them, as an X25519 one does, and a hybrid note must not be readable with an X25519 key.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, inject, it } from 'vitest';

it('the built age bundle encrypts and decrypts with X25519 and hybrid identities', async () => {
  const age = createRequire(import.meta.url)(join(inject('packageRoot'), 'dist', 'vendor-age.cjs'));
  const ids: string[] = [];
  for (const make of ['generateX25519Identity', 'generateHybridIdentity']) {
    const id: string = await age[make]();
    ids.push(id);
    const e = new age.Encrypter();
    e.addRecipient(await age.identityToRecipient(id));
    const sealed = await e.encrypt(`a note for ${make}`);
    const d = new age.Decrypter();
    d.addIdentity(id);
    expect(await d.decrypt(sealed, 'text')).toBe(`a note for ${make}`);
  }
  const e = new age.Encrypter();
  e.addRecipient(await age.identityToRecipient(ids[1]));
  const wrong = new age.Decrypter();
  wrong.addIdentity(ids[0]);
  await expect(wrong.decrypt(await e.encrypt('hybrid only'), 'text')).rejects.toThrow(/no identity matched/i);
});
