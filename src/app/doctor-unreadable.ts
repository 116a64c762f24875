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
