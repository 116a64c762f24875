/**
 * One rule for "newer" on an exact tie (docs/format.md): two sessions in two clones write a
 * handoff on the same commit in the same second, and `sync` merges the histories. The
 * note the merged notes tree keeps at that commit is the version every reader shows
 * first (the same committer date: the smaller id), in both clones. The merge used to keep
 * the larger id, so the tree git's own `git notes show` reads held the other session's note.
 */
import { describe, expect, it } from 'vitest';
import { handoff } from '../helpers/cli.js';
import { Fleet, sync, type FleetRepo } from '../helpers/fleet.js';

function writeAt(repo: FleetRepo, summary: string, t: number): string {
  const date = `@${t} +0000`;
  const r = handoff(repo, ['write', '--json', '--summary', summary], { env: { GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date } });
  expect(r.code, r.stderr).toBe(0);
  return r.json.version;
}

describe('a merge of two versions written in the same second', () => {
  it('keeps in the merged tree the version the readers show first', () => {
    const fleet = new Fleet(2);
    const [a, b] = fleet.clones;
    const t = fleet.clock + 600;
    const va = writeAt(a, 'a stopped here', t);
    const vb = writeAt(b, 'b stopped here', t);
    sync(a);
    const merged = sync(b);
    expect(JSON.stringify(merged), 'b merged both histories').toContain('merge');
    sync(a);
    const first = va < vb ? va : vb;
    const head = a.git('rev-parse', 'HEAD').trim();
    expect(b.git('rev-parse', 'HEAD').trim()).toBe(head);
    for (const repo of [a, b]) {
      const shown = handoff(repo, ['show', '--json']);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.json.version, `${repo.name}: show gives the smaller id of two versions of one date`).toBe(first);
      // the note at HEAD in the notes tree (what `git notes show` reads) is the shown version's
      const kept = repo.git('notes', '--ref=handoff', 'list', head).trim();
      const ofFirst = repo
        .git('ls-tree', '-r', first)
        .split('\n')
        .find((l) => l.split('\t')[1]?.replace(/\//g, '') === head)
        ?.split(/\s/)[2];
      expect(kept, `${repo.name}: the merged tree keeps the note of ${first.slice(0, 12)}`).toBe(ofFirst);
    }
  });
});
