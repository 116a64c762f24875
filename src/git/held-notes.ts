/**
 * Which commits a notes tree holds each note blob at: what tells git's own note copy from a
 * new note (docs/format.md "Which commits are versions"). A walk over the history asks it of
 * each native commit's parent tree in turn, newest first; the index is kept from the last
 * tree asked and moved to the next by the entries that differ between the two
 * (`diffNoteEntries`), so a run of copies costs one listing and then only what changed,
 * never a listing of every note per commit.
 */
import type { Repo } from './repo.js';
import { isTreeMode } from './objects.js';
import { diffNoteEntries, listNotes, readTree, type NoteRef } from './notes-tree.js';
import { GitFailed } from '../errors.js';

const HEX2 = /^[0-9a-f]{2}$/;
const HEX = /^[0-9a-f]+$/;

export class HeldNotes {
  private tree: string | null = null;
  /** path -> its note */
  private readonly byPath = new Map<string, { target: string; blob: string }>();
  /** blob -> the paths that hold it */
  private readonly byBlob = new Map<string, Set<string>>();
  /** asks are answered one after another (a bulk reader classifies several commits at once) */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly repo: Repo) {}

  /** For each of `blobs` the tree holds, the commits it holds it at (in no set order). */
  targets(tree: string, blobs: string[]): Promise<Map<string, string[]>> {
    const run = this.queue.then(async () => {
      await this.moveTo(tree);
      const out = new Map<string, string[]>();
      for (const b of blobs) {
        const paths = this.byBlob.get(b);
        if (paths?.size)
          out.set(
            b,
            [...paths].map((p) => this.byPath.get(p)!.target),
          );
      }
      return out;
    });
    this.queue = run.catch(() => {});
    return run;
  }

  private async moveTo(tree: string): Promise<void> {
    if (this.tree === tree) return;
    const from = this.tree;
    // (an object that cannot be read leaves no half-moved index behind)
    this.tree = null;
    if (from === null) {
      this.byPath.clear();
      this.byBlob.clear();
      for (const n of await this.list(tree)) this.set(n.path, n.target, n.blob);
    } else {
      const changes = await diffNoteEntries(this.repo.objects, from, tree);
      for (const c of changes) if (c.oldBlob) this.unset(c.path);
      for (const c of changes) if (c.newBlob) this.set(c.path, c.target, c.newBlob);
    }
    this.tree = tree;
  }

  private set(path: string, target: string, blob: string): void {
    if (this.byPath.has(path)) this.unset(path);
    this.byPath.set(path, { target, blob });
    const paths = this.byBlob.get(blob) ?? new Set<string>();
    paths.add(path);
    this.byBlob.set(blob, paths);
  }

  private unset(path: string): void {
    const blob = this.byPath.get(path)?.blob;
    if (blob === undefined) return;
    this.byPath.delete(path);
    const paths = this.byBlob.get(blob);
    paths?.delete(path);
    if (paths && !paths.size) this.byBlob.delete(blob);
  }

  /**
   * Every note of a tree, as `listNotes` lists them. A flat tree is one object, read here; a
   * fanned-out one (257 trees at 50,000 notes) is listed by `git ls-tree -r`, an order of
   * magnitude faster than inflating each subtree in JavaScript, its paths held to the same rules.
   */
  private async list(tree: string): Promise<NoteRef[]> {
    if (!(await readTree(this.repo.objects, tree)).some((e) => isTreeMode(e.mode) && HEX2.test(e.name))) return listNotes(this.repo.objects, tree);
    const r = await this.repo.runGit(['ls-tree', '-r', '-z', tree], { readOnly: true, env: { GIT_NO_REPLACE_OBJECTS: '1' } });
    if (r.code !== 0) throw new GitFailed(`git ls-tree ${tree} failed: ${r.stderr.toString().trim()}`);
    const out: NoteRef[] = [];
    for (const rec of r.stdout.toString('latin1').split('\0')) {
      // <mode> SP <type> SP <object> TAB <path>
      const tab = rec.indexOf('\t');
      if (tab < 0) continue;
      const [mode, , blob] = rec.slice(0, tab).split(' ');
      const path = rec.slice(tab + 1);
      const parts = path.split('/');
      const name = parts.pop()!;
      if (isTreeMode(mode) || !parts.every((p) => HEX2.test(p)) || !HEX.test(name)) continue;
      const target = parts.join('') + name;
      if (target.length === 40) out.push({ target, blob, path });
    }
    return out;
  }
}
