/**
 * age encryption of notes (docs/privacy.md): the armoured age format, read and written by
 * `age-encryption` (by age's author), which is loaded only when a note is encrypted or a
 * key is made, so that reading a shared handoff loads none of it. No cryptography here:
 * only the format's outer shape (the armour, the header's recipient lines) is read by hand.
 */

export type Visibility = 'shared' | 'team' | 'private';
export const VISIBILITIES: readonly Visibility[] = ['shared', 'team', 'private'];

const BEGIN = '-----BEGIN AGE ENCRYPTED FILE-----';
const END = '-----END AGE ENCRYPTED FILE-----';

type AgeLib = typeof import('age-encryption');
let lib: Promise<AgeLib> | null = null;
/** The library, loaded on first use (a bundle of its own in dist/). */
const age = (): Promise<AgeLib> => (lib ??= import('age-encryption'));

/** True when a note's bytes are an armoured age file (possibly after leading whitespace, as age allows). */
export function isArmoredAge(data: Buffer | string): boolean {
  const head = (typeof data === 'string' ? data.slice(0, 64) : data.subarray(0, 64).toString('latin1')).trimStart();
  return head.startsWith(BEGIN);
}

/** The recipient public key format age uses for X25519 (`age1` + bech32). */
export const RECIPIENT_PATTERN = /^age1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{58}$/;
const IDENTITY_PATTERN = /^AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}$/;

/** The secret keys of an age identity file (age-keygen's format: `#` comments, one key a line). */
export function parseIdentityFile(text: string): { keys: string[]; problem: string | null } {
  const keys: string[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    if (!IDENTITY_PATTERN.test(line)) return { keys, problem: `line ${i + 1} is not an age X25519 secret key (AGE-SECRET-KEY-1...)` };
    keys.push(line);
  }
  return { keys, problem: keys.length ? null : 'it holds no age secret key (AGE-SECRET-KEY-1...)' };
}

/**
 * A list of recipients, one age public key a line, `#` starting a comment (anywhere on a
 * line, so a key can be followed by the person's name). Duplicates are kept once.
 */
export function parseRecipients(text: string, source: string): string[] {
  return parseReaders(text, source).map((r) => r.key);
}

/** A reader of a recipients list: the public key and the name its line's comment gives (empty when none). */
export interface Reader {
  key: string;
  name: string;
}

/** The readers of a recipients list (as parseRecipients), each with the comment that follows its key on its line. */
export function parseReaders(text: string, source: string): Reader[] {
  const out: Reader[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const hash = raw.indexOf('#');
    const line = (hash < 0 ? raw : raw.slice(0, hash)).trim();
    if (!line) continue;
    if (!RECIPIENT_PATTERN.test(line)) throw new RecipientProblem(`${source} line ${i + 1}: '${line.slice(0, 40)}' is not an age public key (age1...)`);
    const name = hash < 0 ? '' : raw.slice(hash + 1).trim();
    if (!out.some((r) => r.key === line)) out.push({ key: line, name });
  }
  return out;
}

export class RecipientProblem extends Error {}

/** An armoured age file's header lines (the stanzas before `---`), without decrypting anything. */
function headerLines(armored: string): string[] | null {
  const body = armored.trim();
  if (!body.startsWith(BEGIN) || !body.endsWith(END)) return null;
  const b64 = body.slice(BEGIN.length, -END.length).replace(/\s+/g, '');
  const bytes = Buffer.from(b64, 'base64');
  const text = bytes.subarray(0, Math.min(bytes.length, 64 * 1024)).toString('latin1');
  const end = text.indexOf('\n---');
  if (!text.startsWith('age-encryption.org/v1\n') || end < 0) return null;
  return text.slice(0, end).split('\n').slice(1);
}

/** How many recipients an armoured note is encrypted to (its X25519 and hybrid stanzas), or null when it is no age file. */
export function recipientCount(armored: string): number | null {
  const lines = headerLines(armored);
  if (!lines) return null;
  return lines.filter((l) => /^-> (X25519|mlkem768x25519) /.test(l)).length;
}

/** `text` encrypted to `recipients`, as an armoured age file (what `age -a -r ...` writes). */
export async function encryptArmored(text: string, recipients: readonly string[]): Promise<string> {
  const { Encrypter, armor } = await age();
  const e = new Encrypter();
  for (const r of recipients) e.addRecipient(r);
  return armor.encode(await readAllOf(await e.encrypt(streamOf(new TextEncoder().encode(text)))));
}

/**
 * The library's streams are handed in and read here, not by the library: given bytes it
 * collects its output through `new Response(stream)`, which loads Node's whole fetch
 * implementation (undici) on first use, about 30 ms of a `show` of an encrypted handoff.
 */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      c.enqueue(bytes);
      c.close();
    },
  });
}

async function readAllOf(s: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const reader = s.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

/** Why an armoured note could not be decrypted. */
export type DecryptFailure = { kind: 'not-for-you' } | { kind: 'damaged'; reason: string };

type AgeDecrypter = InstanceType<AgeLib['Decrypter']>;
/** The Decrypter of the last set of keys: first one given the strings, then (from the second note) one given the imported keys. */
let decrypter: { id: string; uses: number; d: Promise<AgeDecrypter> } | null = null;

type Bech32Lib = typeof import('@scure/base');
let bech32Lib: Promise<Bech32Lib> | null = null;
/** age's own encoding library (a dependency of age-encryption), loaded with it. */
const bech32 = (): Promise<Bech32Lib> => (bech32Lib ??= import('@scure/base'));

/** RFC 8410's PKCS #8 wrapping of a raw X25519 private key: the one form WebCrypto imports one in (as age-encryption does). */
const PKCS8_X25519 = Buffer.from('302e020100300506032b656e04220420', 'hex');

/**
 * A secret key as the library takes it: a WebCrypto key, imported once. Given the string,
 * age-encryption imports the key again for every file it decrypts (WebCrypto derives the
 * public key on each import): 0.7 ms a note, most of log --json over encrypted versions.
 * Where WebCrypto has no X25519 the string is kept (the library then computes in JavaScript).
 */
async function importedKey(key: string): Promise<string | CryptoKey> {
  try {
    const { prefix, bytes } = (await bech32()).bech32.decodeToBytes(key);
    if (prefix.toUpperCase() !== 'AGE-SECRET-KEY-' || bytes.length !== 32) return key;
    return await globalThis.crypto.subtle.importKey('pkcs8', Buffer.concat([PKCS8_X25519, bytes]), { name: 'X25519' }, false, ['deriveBits']);
  } catch {
    return key;
  }
}

/**
 * One Decrypter per set of keys, its identities imported once, not once a note (log --json
 * decrypts thousands). The first note is decrypted with the keys as strings: importing
 * costs more than it saves for one note (show of an encrypted handoff decrypts one).
 */
function decrypterFor(Decrypter: AgeLib['Decrypter'], keys: readonly string[]): Promise<AgeDecrypter> {
  const id = keys.join('\n');
  const made = (identities: readonly (string | CryptoKey)[]) => {
    const d = new Decrypter();
    for (const k of identities) d.addIdentity(k);
    return d;
  };
  if (decrypter?.id !== id) decrypter = { id, uses: 0, d: Promise.resolve().then(() => made(keys)) };
  else if (++decrypter.uses === 1) decrypter.d = Promise.all(keys.map(importedKey)).then(made);
  return decrypter.d;
}

/** Decrypts an armoured note with `keys`: the text, or why not (never throws for bad input). */
export async function decryptArmored(armored: string, keys: readonly string[]): Promise<{ text: string } | DecryptFailure> {
  if (!headerLines(armored)) return { kind: 'damaged', reason: 'the age header cannot be read (truncated or not an age file)' };
  if (!keys.length) return { kind: 'not-for-you' };
  const { Decrypter, armor } = await age();
  let bytes: Uint8Array;
  try {
    bytes = armor.decode(armored);
  } catch (e) {
    return { kind: 'damaged', reason: `the armour is damaged (${oneLine(e)})` };
  }
  const d = await decrypterFor(Decrypter, keys);
  try {
    // As Response.text() decodes (what the library does given bytes): UTF-8, a BOM dropped.
    return { text: new TextDecoder().decode(await readAllOf(await d.decrypt(streamOf(bytes)))) };
  } catch (e) {
    const msg = oneLine(e);
    if (/no identity matched/i.test(msg)) return { kind: 'not-for-you' };
    return { kind: 'damaged', reason: `the ciphertext does not decrypt (${msg})` };
  }
}

/** A new X25519 identity: the secret key and its public key. */
export async function newIdentity(): Promise<{ secret: string; recipient: string }> {
  const { generateX25519Identity, identityToRecipient } = await age();
  const secret = await generateX25519Identity();
  return { secret, recipient: await identityToRecipient(secret) };
}

/** The public key of a secret key. */
export async function recipientOf(secret: string): Promise<string> {
  const { identityToRecipient } = await age();
  return identityToRecipient(secret);
}

const oneLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0];
