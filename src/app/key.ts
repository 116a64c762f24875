/**
 * `key new` and `key show` (docs/privacy.md): the user's age identity, made here or made by
 * age-keygen, and its public key to give to teammates.
 */
import type { Repo } from '../git/repo.js';
import { identityKeys, identityPath } from '../git/note-keys.js';
import { newIdentity, recipientOf } from '../core/age.js';
import { createIdentityFile } from '../state/age-identity.js';
import { KeyProblem } from '../errors.js';

export interface KeyReport {
  path: string;
  /** the public keys of the identity's secret keys, in file order */
  recipients: string[];
  created: boolean;
}

/** Makes a new X25519 identity where the readers look for it (`handoff.identity`, else the default); refused when a file is there. */
export async function newKey(repo: Repo | null): Promise<KeyReport> {
  const { path } = await identityPath(repo);
  const { secret, recipient } = await newIdentity();
  const text = `# created: ${new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')} by git handoff key new\n# public key: ${recipient}\n${secret}\n`;
  createIdentityFile(path, text);
  return { path, recipients: [recipient], created: true };
}

/** The public keys of the user's identity; refused when there is none. */
export async function showKey(repo: Repo | null): Promise<KeyReport> {
  const { path, keys } = await identityKeys(repo);
  if (!keys.length) throw new KeyProblem(`no age identity at ${path}: run 'git handoff key new' (or set handoff.identity to an age identity file)`);
  return { path, recipients: await Promise.all(keys.map((k) => recipientOf(k))), created: false };
}
