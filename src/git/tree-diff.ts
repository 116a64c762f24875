/**
 * How many files a commit changes, counted by comparing trees in-process and stopping as
 * soon as the count passes `limit` (the substantive rule only needs "more than 3").
 */
import { isTreeMode, type ObjectStore } from './objects.js';
import { readTree } from './read-objects.js';

/** Files that differ between two trees, counted up to `limit + 1` (then it stops reading). */
export async function countChangedFiles(store: ObjectStore, oldTree: string | null, newTree: string, limit: number): Promise<number> {
  if (oldTree === newTree) return 0;
  let count = 0;
  async function walk(a: string | null, b: string | null): Promise<void> {
    const [ea, eb] = await Promise.all([readTree(store, a), readTree(store, b)]);
    const byName = new Map(ea.map((e) => [e.name, e]));
    const seen = new Set<string>();
    for (const e of eb) {
      if (count > limit) return;
      seen.add(e.name);
      const o = byName.get(e.name);
      if (o && o.oid === e.oid && o.mode === e.mode) continue;
      const oTree = o && isTreeMode(o.mode);
      const eTree = isTreeMode(e.mode);
      if (eTree || oTree) {
        // A folder on either side: what changed inside it; a file replaced by a folder counts too.
        if (o && !oTree) count++;
        await walk(oTree ? o!.oid : null, eTree ? e.oid : null);
        if (!eTree) count++;
      } else {
        count++;
      }
    }
    for (const o of ea) {
      if (count > limit) return;
      if (seen.has(o.name)) continue;
      if (isTreeMode(o.mode)) await walk(o.oid, null);
      else count++;
    }
  }
  await walk(oldTree, newTree);
  return Math.min(count, limit + 1);
}
