/**
 * What a version carrying an encrypted note as it is says in the clear (src/app/carried-note.ts):
 * its writer's visibility and branch when the walk finds the writer; when it does not (the
 * writer is older than `writerOf`'s 5,000 commits), `private` (never widened to `team`) and
 * the branch the carrier is on.
 */
import { describe, expect, it } from 'vitest';
import { carriedNote } from '../../src/app/carried-note.js';
import type { VersionReader } from '../../src/history/reader.js';

const SEALED = '-----BEGIN AGE ENCRYPTED FILE-----\nYWdlLWVuY3J5cHRpb24ub3JnL3YxCg==\n-----END AGE ENCRYPTED FILE-----\n';
const none: Pick<VersionReader, 'writerOf'> = { writerOf: async () => null };
const wroteBy = (message: string, branch: string | null): Pick<VersionReader, 'writerOf'> => ({
  writerOf: async (blobs) => ({ blob: blobs[0], version: { branch, timestamp: 7, commit: { message } } }) as never,
});

describe('carriedNote', () => {
  it('no writer found: private, and the branch the carrier is on', async () => {
    const c = await carriedNote(none, 'b'.repeat(40), SEALED, 'feature');
    expect(c.visibility).toBe('private');
    expect(c.trailers).toEqual({ 'Handoff-Visibility': 'private' });
    expect(c.branch).toBe('feature');
    expect(c.writer).toBeUndefined();
  });

  it('no writer found on a detached HEAD: no branch', async () => {
    expect((await carriedNote(none, 'b'.repeat(40), SEALED, null)).branch).toBeNull();
  });

  it("a writer found: its visibility and its branch, not the carrier's", async () => {
    const priv = await carriedNote(
      wroteBy('handoff (encrypted)\n\nHandoff-Kind: version\nHandoff-Visibility: private\n', 'main'),
      'b'.repeat(40),
      SEALED,
      'feature',
    );
    expect(priv).toMatchObject({ visibility: 'private', branch: 'main', writer: { branch: 'main', timestamp: 7 } });
    const team = await carriedNote(
      wroteBy('handoff (encrypted)\n\nHandoff-Kind: version\nHandoff-Visibility: team\n', null),
      'b'.repeat(40),
      SEALED,
      'feature',
    );
    expect(team).toMatchObject({ visibility: 'team', branch: null });
  });

  it('a note in the clear is shared and says nothing more', async () => {
    expect(await carriedNote(none, 'b'.repeat(40), 'schema: 1\n', 'feature')).toEqual({ visibility: 'shared', trailers: {} });
  });
});
