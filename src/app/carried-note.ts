/**
 * A note carried as it is onto another commit (post-rewrite, a squash merge, a forge's merge
 * healed on pull, `doctor --fix`): the new version sets the same blob at the new commit. An
 * encrypted note (docs/privacy.md) is never decrypted and encrypted again for it, and what
 * the new version's commit must say in the clear (its visibility, and its branch when the
 * carrier does not know one) is what the commit of the version that wrote the blob says:
 * nothing of it is read from the note, which no key here may read.
 */
import type { VersionReader } from '../history/reader.js';
import { parseTrailers } from '../core/commit-message.js';
import { isArmoredAge, type Visibility } from '../core/age.js';

export interface CarriedNote {
  /** `shared` for a note in the clear; else as the writing version's commit says (`team` when it says nothing; `private` when no version found wrote it) */
  visibility: Visibility;
  /** the trailers the carrying version adds to its own (`Handoff-Visibility` for an encrypted note) */
  trailers: Record<string, string>;
  /** an encrypted note's writer (undefined for a note in the clear, whose own fields say all, or when no version wrote it) */
  writer?: { branch: string | null | undefined; timestamp: number };
  /** an encrypted note's branch: its writer's, else the carrier's own (`here`) */
  branch?: string | null;
}

/**
 * What a version carrying the note `blob` (its bytes or text `data`) as it is takes from the
 * version that wrote it. When the walk (`writerOf`, 5,000 commits) finds no writer, what is in
 * the clear does not say who may read the note (age's header names no recipients), so the
 * carrier says `private`, the narrower: a write continuing it is encrypted to no more readers
 * than it may have had; and its branch is the one the carrier is on (`here`).
 */
export async function carriedNote(reader: Pick<VersionReader, 'writerOf'>, blob: string, data: Buffer | string, here?: string | null): Promise<CarriedNote> {
  if (!isArmoredAge(data)) return { visibility: 'shared', trailers: {} };
  const found = await reader.writerOf([blob]);
  const said = found ? parseTrailers(found.version.commit.message)['Handoff-Visibility'] : undefined;
  const visibility: Visibility = said === 'private' || !found ? 'private' : 'team';
  const branch = found ? found.version.branch : here;
  return {
    visibility,
    trailers: { 'Handoff-Visibility': visibility },
    ...(found ? { writer: { branch: found.version.branch, timestamp: found.version.timestamp } } : {}),
    ...(branch !== undefined ? { branch } : {}),
  };
}
