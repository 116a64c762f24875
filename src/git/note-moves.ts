/**
 * Git's own note copies (amend, rebase through `notes.rewriteRef`) move versions: the
 * copied blob is the same version, now on another commit (docs/format.md "Which commits
 * are versions"). Walking the history newest first, the copies are met before the versions
 * they moved; this remembers them so each version is reported where its note sits now.
 */
import type { NoteMove } from './handoff-store.js';

/** Where later copies put the notes met so far: by the commit a note was copied from. */
export class Moves {
  private readonly from = new Map<string, { blob: string; target: string }[]>();

  add(moves: NoteMove[]): void {
    // Newest first: the first copy met of a note from a commit is where it went last.
    for (const m of moves)
      for (const f of m.from) {
        const list = this.from.get(f) ?? [];
        if (!list.some((x) => x.blob === m.blob)) list.push({ blob: m.blob, target: m.target });
        this.from.set(f, list);
      }
  }

  /** Whether a copy was made from `commit` (else `apply` hands a version written there on as it is). */
  moved(commit: string): boolean {
    return this.from.has(commit);
  }

  /**
   * `v` with its target where its note was last copied to, following copies of copies.
   * `blob` says its note's blob id (asked only when a copy was made from its commit).
   */
  async apply<V extends { writtenAt: string; target: string }>(v: V, blob: () => Promise<string | undefined>): Promise<V> {
    if (!this.from.has(v.writtenAt)) return v;
    const b = await blob();
    let target = v.writtenAt;
    for (let hops = 0; b && hops < 64; hops++) {
      const next = this.from.get(target)?.find((x) => x.blob === b);
      if (!next || next.target === target) break;
      target = next.target;
    }
    return target === v.target ? v : { ...v, target };
  }
}
