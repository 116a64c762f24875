/**
 * The user's age keys as the notes see them (docs/privacy.md): the identity that decrypts
 * (`handoff.identity`, else the default file), and the recipients a write encrypts to
 * (`private`: the identity's own public keys and `handoff.recipient`; a team's readers, the
 * tracked `.handoff-recipients`, are read by src/app/team-readers.ts). Nothing here is read until a note is
 * encrypted or decrypted, so a shared handoff costs none of it.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Repo } from './repo.js';
import { decryptArmored, parseIdentityFile, parseRecipients, recipientOf, RecipientProblem, type DecryptFailure } from '../core/age.js';
import { defaultIdentityPath, readIdentityFile } from '../state/age-identity.js';
import { KeyProblem } from '../errors.js';

/** The tracked file that lists a team's readers, at the repository root. */
export const RECIPIENTS_FILE = '.handoff-recipients';

/** Where the identity is: `handoff.identity` (a leading `~/` is the home folder), else the default file. */
export async function identityPath(repo: Repo | null): Promise<{ path: string; configured: boolean }> {
  const set = repo ? await repo.configGet('handoff.identity') : undefined;
  if (set === undefined || set === '') return { path: defaultIdentityPath(), configured: false };
  return { path: set.startsWith('~/') ? join(process.env.HOME || homedir(), set.slice(2)) : set, configured: true };
}

/** The secret keys of the user's identity; none when there is no identity file (a set `handoff.identity` must exist). */
export async function identityKeys(repo: Repo | null): Promise<{ path: string; keys: string[] }> {
  const { path, configured } = await identityPath(repo);
  const text = readIdentityFile(path);
  if (text === null) {
    if (configured) throw new KeyProblem(`handoff.identity names ${path}, which does not exist`);
    return { path, keys: [] };
  }
  const { keys, problem } = parseIdentityFile(text);
  if (problem) throw new KeyProblem(`the age identity ${path} cannot be used: ${problem}`);
  return { path, keys };
}

export interface NoteKeys {
  decrypt(armored: string): Promise<{ text: string } | DecryptFailure>;
  /** whether the user holds any key at all (none: every encrypted note is for others, or damaged) */
  any(): Promise<boolean>;
}

const cache = new WeakMap<Repo, NoteKeys>();

/** The decryptor of a repository's notes: the identity is read once, when the first encrypted note is met. */
export function noteKeys(repo: Repo): NoteKeys {
  let keys: Promise<string[]> | null = null;
  const held = () => (keys ??= identityKeys(repo).then((k) => k.keys));
  const made = cache.get(repo) ?? {
    decrypt: async (armored: string) => decryptArmored(armored, await held()),
    any: async () => (await held()).length > 0,
  };
  cache.set(repo, made);
  return made;
}

/** The public keys a private write encrypts to (the identity's own and `handoff.recipient`); refused in one line when there is no identity. */
export async function privateRecipients(repo: Repo): Promise<string[]> {
  const { path, keys } = await identityKeys(repo);
  if (!keys.length)
    throw new KeyProblem(
      `a private handoff needs your age identity and there is none at ${path}: run 'git handoff key new' (or set handoff.identity to an age identity file)`,
    );
  const own = await Promise.all(keys.map((k) => recipientOf(k)));
  try {
    const listed = parseRecipients((await repo.configAll('handoff.recipient')).join('\n'), 'handoff.recipient');
    return [...new Set([...own, ...listed])];
  } catch (e) {
    if (e instanceof RecipientProblem) throw new KeyProblem(e.message);
    throw e;
  }
}
