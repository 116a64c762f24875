/**
 * `key new` and `key show` (docs/privacy.md): the user's age identity, made here or made by
 * age-keygen, and its public key to give to teammates; `key accept`: the team's readers at
 * HEAD, accepted for this clone's team writes.
 */
import type { Repo } from '../git/repo.js';
import { identityKeys, identityPath } from '../git/note-keys.js';
import { newIdentity, recipientOf } from '../core/age.js';
import { createIdentityFile } from '../state/age-identity.js';
import { KeyProblem } from '../errors.js';
import type { Reader } from '../core/age.js';
import { readerName, REMOVED_STAY_READABLE } from '../core/readers-change.js';
import { rememberReaders, sinceWords, teamReaders } from './team-readers.js';

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

export interface AcceptReport {
  readers: Reader[];
  /** each reader for people: its comment's name and the start of its key */
  names: string[];
  /** the commit that last changed the list, below HEAD */
  changedIn: { commit: string; author: string } | null;
  /** what changed since the readers accepted last (or the previous team version): '' when nothing */
  since: string;
  /** a reader was removed: what that means, said plainly */
  removedNote: string | null;
  /** already in effect before this command */
  already: boolean;
  dryRun: boolean;
}

/** `key accept`: the readers in `.handoff-recipients` at HEAD become those of this clone's team writes. */
export async function acceptTeam(repo: Repo, dryRun: boolean): Promise<AcceptReport> {
  const t = await teamReaders(repo, repo.headBranch());
  const change = t.sinceAccepted ?? t.previous?.change ?? null;
  if (!dryRun) rememberReaders(repo, t);
  return {
    readers: t.readers,
    names: t.readers.map(readerName),
    changedIn: t.last ? { commit: t.last.commit, author: t.last.author } : null,
    since: sinceWords(t).replace(/^ \((.*)\)$/, '$1'),
    removedNote: change?.removed.length ? REMOVED_STAY_READABLE : null,
    already: t.accepted,
    dryRun,
  };
}
