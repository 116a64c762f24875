/**
 * doctor: the versions the user's key cannot read (docs/privacy.md "Reading"): team and
 * private versions encrypted to others. Nothing to repair (a version stays encrypted to
 * the keys it was written for), but worth knowing: how many, and which. Only encrypted
 * versions' notes are read (the commit's `Handoff-Visibility` says which); a shared history
 * costs one `git log`.
 */
import type { Repo } from '../git/repo.js';
import { HandoffStore } from '../git/handoff-store.js';
import { canStream, isRead, streamVersions } from '../git/version-stream.js';
import { VersionReader } from '../history/reader.js';
import type { Finding } from './doctor-finding.js';
import { parseTrailers } from '../core/commit-message.js';
import { findNote } from '../git/notes-tree.js';
import { identityKeys, RECIPIENTS_FILE } from '../git/note-keys.js';
import { readersTextAt } from '../git/team-readers.js';
import { isArmoredAge, parseRecipients, recipientCount, recipientOf, RECIPIENT_PATTERN } from '../core/age.js';
import { UsageError } from '../errors.js';

/** Ids listed in the message, and in the JSON finding, at most. */
const IN_MESSAGE = 5;
const IN_JSON = 100;

export async function checkUnreadable(repo: Repo): Promise<Finding[]> {
  const tip = await new HandoffStore(repo).tip();
  if (!tip) return [];
  const sealed: string[] = [];
  let count = 0;
  if (canStream(repo)) {
    for await (const v of streamVersions(repo, tip, (_v, trailers) => trailers['Handoff-Visibility'] !== undefined)) {
      if (!isRead(v) || !v.sealed) continue;
      if (++count <= IN_JSON) sealed.push(v.id);
    }
  } else {
    const { versions } = await new VersionReader(repo).select({ all: true });
    for await (const v of versions) if (v.sealed && ++count <= IN_JSON) sealed.push(v.id);
  }
  if (!count) return [];
  const named = sealed.slice(0, IN_MESSAGE).map((id) => id.slice(0, 12));
  const more = count > named.length ? ` and ${count - named.length} more` : '';
  return [
    {
      kind: 'unreadable',
      subject: sealed[0],
      message: `${count} version${count === 1 ? ' is' : 's are'} encrypted for others and your key cannot read ${count === 1 ? 'it' : 'them'}: ${named.join(', ')}${more}`,
      action:
        "nothing to do unless you should read them: a version stays encrypted to the keys it was written for; ask a reader to add your public key ('git handoff key show') for the versions written next",
      fixable: false,
      fixed: false,
      note: true,
      versions: sealed,
      count,
    },
  ];
}

/**
 * `doctor --key age1...`: the encrypted versions another public key cannot read, decided
 * from what is in the clear (docs/privacy.md), since age's X25519 stanzas do not name their
 * recipient. A team version was encrypted to `.handoff-recipients` as committed at the commit
 * it was written on (its `Handoff-Target`): when this clone has that commit and the list
 * there has as many keys as the note has recipients, the key's presence in it decides. A
 * private version is encrypted to its writer's own keys, which nothing records: it cannot be
 * told, nor can a team version whose list is not here or does not match. For the user's own
 * identity's key the answer is exact: the check above, by decrypting.
 */
export async function checkKeyReaders(repo: Repo, key: string): Promise<Finding[]> {
  if (!RECIPIENT_PATTERN.test(key)) throw new UsageError(`--key ${key.slice(0, 70)} is not an age public key (age1... as 'git handoff key show' prints it)`);
  const own = await Promise.all((await identityKeys(repo).catch(() => ({ keys: [] as string[] }))).keys.map((k) => recipientOf(k)));
  const short = `${key.slice(0, 12)}...`;
  if (own.includes(key)) {
    const [mine] = await checkUnreadable(repo);
    if (mine) return [{ ...mine, kind: 'key', subject: key, unknown: [], unknownCount: 0 }];
    return [keyFinding(key, `${short} (your own key) can read every encrypted version`, [], 0, [], 0)];
  }
  const store = new HandoffStore(repo);
  const tip = await store.tip();
  const cannot: string[] = [];
  const unsure: string[] = [];
  let count = 0;
  let unknownCount = 0;
  let readable = 0;
  const lists = new Map<string, Promise<string[] | null>>();
  if (tip) {
    // A note carried as it is (a rebase, a squash, doctor --fix) was encrypted when first
    // written: each blob is judged by its oldest version, the write that encrypted it.
    const seen: { id: string; blob: string }[] = [];
    const first = new Map<string, { writtenAt: string; said: string | undefined; data: Buffer }>();
    for await (const v of store.versions(tip)) {
      // Our shared versions say so in their commit (no Handoff-Visibility): their notes are
      // not read. Native ones, and carries made before they copied the visibility, are.
      const t = parseTrailers(v.commit.message);
      if (t['Handoff-Kind'] && !t['Handoff-Visibility'] && !t['Handoff-Reattached-From']) continue;
      const note = await findNote(repo.objects, v.commit.tree, v.writtenAt);
      const data = note && (await repo.objects.read(note.blob))?.data;
      if (!note || !data || !isArmoredAge(data)) continue;
      seen.push({ id: v.id, blob: note.blob });
      first.set(note.blob, { writtenAt: v.writtenAt, said: t['Handoff-Visibility'], data });
    }
    const verdicts = new Map<string, 'yes' | 'no' | 'unsure'>();
    for (const [blob, w] of first) {
      const readers = w.said === 'private' ? null : await (lists.get(w.writtenAt) ?? cached(lists, w.writtenAt, readersAt(repo, w.writtenAt)));
      const n = recipientCount(w.data.toString('latin1'));
      verdicts.set(blob, !readers || readers.length !== n ? 'unsure' : readers.includes(key) ? 'yes' : 'no');
    }
    for (const { id, blob } of seen) {
      const verdict = verdicts.get(blob);
      if (verdict === 'unsure') {
        if (++unknownCount <= IN_JSON) unsure.push(id);
      } else if (verdict === 'yes') readable++;
      else if (++count <= IN_JSON) cannot.push(id);
    }
  }
  const named = (ids: string[], all: number) => {
    const listed = ids.slice(0, IN_MESSAGE).map((id) => id.slice(0, 12));
    return `${listed.join(', ')}${all > listed.length ? ` and ${all - listed.length} more` : ''}`;
  };
  const parts = [
    count
      ? `${count} version${count === 1 ? '' : 's'} cannot be read by ${short}: ${named(cannot, count)}`
      : `${short} can read every team version whose readers are known here (${readable})`,
    ...(unknownCount
      ? [
          `${unknownCount} more cannot be told from what is in the clear (${named(unsure, unknownCount)}): private versions are encrypted to their writers' own keys, which no commit records, and a team version needs the ${RECIPIENTS_FILE} of the commit it was written on`,
        ]
      : []),
  ];
  return [keyFinding(key, parts.join('; '), cannot, count, unsure, unknownCount)];
}

function keyFinding(key: string, message: string, versions: string[], count: number, unknown: string[], unknownCount: number): Finding {
  return {
    kind: 'key',
    subject: key,
    message,
    action: 'nothing to do: a version stays encrypted to the keys it was written for; versions written from now on follow the current readers',
    fixable: false,
    fixed: false,
    note: true,
    versions,
    count,
    unknown,
    unknownCount,
  };
}

function cached<T>(map: Map<string, Promise<T>>, k: string, p: Promise<T>): Promise<T> {
  map.set(k, p);
  return p;
}

/** The public keys of `.handoff-recipients` as committed at `commit`, or null (no commit, no list, a line that is no key). */
async function readersAt(repo: Repo, commit: string): Promise<string[] | null> {
  const text = await readersTextAt(repo, commit);
  if (text === null) return null;
  try {
    return parseRecipients(text, RECIPIENTS_FILE);
  } catch {
    return null;
  }
}
