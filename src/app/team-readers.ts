/**
 * The readers of team handoffs when `.handoff-recipients` changes (docs/privacy.md "When
 * the readers change"). The list is content someone else can change: a change this clone
 * committed is in effect at once; one that arrived with a pull, a merge or a checkout is
 * used for team writes only once the user accepts it (`key accept`), which is remembered
 * per set of keys. A team write says who was added or removed since the previous team
 * version of its branch, in which commit and by whom.
 */
import type { Repo } from '../git/repo.js';
import { HandoffStore } from '../git/handoff-store.js';
import { parseTrailers } from '../git/objects.js';
import { lastReadersCommit, readersTextAt, type ReadersCommit } from '../git/team-readers.js';
import { RECIPIENTS_FILE } from '../git/note-keys.js';
import { walkVersions } from '../history/walk.js';
import { parseReaders, RecipientProblem, type Reader } from '../core/age.js';
import { changed, describeChange, readersChange, readersSetId, REMOVED_STAY_READABLE, type ReadersChange } from '../core/readers-change.js';
import { acceptReaders, isAcceptedReaders, lastAcceptedReaders } from '../state/accepted-readers.js';
import { KeyProblem, ReadersNotAccepted } from '../errors.js';

/** How many notes commits are walked, at most, looking for the previous team version. */
const MAX_WALK = 2000;

export interface TeamReaders {
  readers: Reader[];
  /** the commit that last changed the list, below HEAD */
  last: ReadersCommit | null;
  /** in effect: committed here, or accepted before */
  accepted: boolean;
  /** the previous team version of the branch and the change since its readers, when there is one */
  previous: { version: string; change: ReadersChange } | null;
  /** the change since the readers this clone accepted (or wrote to) last; null when it never did */
  sinceAccepted: ReadersChange | null;
  setId: string;
}

/** The readers at HEAD and how they stand against what this clone accepted and the previous team version. */
export async function teamReaders(repo: Repo, branch: string | null): Promise<TeamReaders> {
  const text = await readersTextAt(repo, 'HEAD');
  if (text === null) throw new KeyProblem(`HEAD has no ${RECIPIENTS_FILE} (one age public key a line, '#' comments): a team handoff would have no reader`);
  const readers = readersOf(text, 'HEAD');
  const setId = readersSetId(readers);
  const last = await lastReadersCommit(repo);
  const accepted = isAcceptedReaders(repo.paths.commonDir, setId) || Boolean(last?.madeHere);
  const prev = await previousTeamVersion(repo, branch);
  let previous: TeamReaders['previous'] = null;
  if (prev) {
    const before = await readersTextAt(repo, prev.at);
    if (before !== null) previous = { version: prev.id, change: readersChange(safeReaders(before), readers) };
  }
  const before = lastAcceptedReaders(repo.paths.commonDir);
  const sinceAccepted = before ? readersChange(before, readers) : null;
  return { readers, last, accepted, previous, sinceAccepted, setId };
}

/** Refused in one line unless the readers at HEAD are in effect; else the lines a write prints about them. */
export function teamWriteNotes(t: TeamReaders): string[] {
  const where = t.last ? ` in ${t.last.commit.slice(0, 12)} by ${t.last.author || 'someone'}` : '';
  if (!t.accepted) {
    const since = sinceWords(t);
    throw new ReadersNotAccepted(
      `${RECIPIENTS_FILE} changed${where}, which arrived with a pull, merge or checkout${since}: a team handoff is encrypted to its ${t.readers.length} reader${t.readers.length === 1 ? '' : 's'} only once you accept them; check the file, then run 'git handoff key accept' (nothing was written)`,
    );
  }
  if (!t.previous || !changed(t.previous.change)) return [];
  const removed = t.previous.change.removed.length ? `; ${REMOVED_STAY_READABLE}` : '';
  return [`the readers of team handoffs changed since version ${t.previous.version.slice(0, 12)}: ${describeChange(t.previous.change)}${where}${removed}`];
}

/** What changed since the readers this clone last accepted, else since the previous team version: ` (added ...)`, or nothing. */
export function sinceWords(t: TeamReaders): string {
  if (t.sinceAccepted) return changed(t.sinceAccepted) ? ` (${describeChange(t.sinceAccepted)} since the readers you accepted last)` : '';
  return t.previous && changed(t.previous.change) ? ` (${describeChange(t.previous.change)} since version ${t.previous.version.slice(0, 12)})` : '';
}

/** Remembers the readers at HEAD as accepted in this clone. */
export function rememberReaders(repo: Repo, t: TeamReaders): void {
  acceptReaders(repo.paths.commonDir, t.setId, t.readers);
}

function readersOf(text: string, at: string): Reader[] {
  let readers: Reader[];
  try {
    readers = parseReaders(text, `${RECIPIENTS_FILE} (at ${at})`);
  } catch (e) {
    if (e instanceof RecipientProblem) throw new KeyProblem(e.message);
    throw e;
  }
  if (!readers.length) throw new KeyProblem(`${RECIPIENTS_FILE} at ${at} lists no age public key: a team handoff would have no reader`);
  return readers;
}

/** An older list that no longer parses counts as having had none of today's readers. */
function safeReaders(text: string): Reader[] {
  try {
    return parseReaders(text, RECIPIENTS_FILE);
  } catch {
    return [];
  }
}

/** The newest team version of the branch (from its commit's trailers: nothing is decrypted) and the commit it was written at. */
async function previousTeamVersion(repo: Repo, branch: string | null): Promise<{ id: string; at: string } | null> {
  const store = new HandoffStore(repo);
  const tip = await store.tip();
  if (!tip) return null;
  let n = 0;
  for await (const { version } of walkVersions(store, tip)) {
    if (++n > MAX_WALK) return null;
    if (!version || version.branch !== branch) continue;
    if (parseTrailers(version.commit.message)['Handoff-Visibility'] === 'team') return { id: version.id, at: version.writtenAt };
  }
  return null;
}
