/**
 * Temporary files git leaves when it dies mid-write: on a full disk `git fetch`
 * exits with `objects/pack/tmp_pack_*` or `objects/xx/tmp_obj_*` still there, and a step we
 * stopped at its deadline may too. After a failed network step of ours, the temporaries
 * made since it started and held open by no process are removed; anything older, or still
 * being written by another git, is left alone.
 */
import { readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { processHolding } from '../process/proc.js';

const TEMPORARY = /^tmp_(obj|pack|idx|rev)_/;

/** Removes git's temporaries under `objectsDir` modified at or after `sinceMs`; returns what it removed. */
export function removeGitTemporaries(objectsDir: string, sinceMs: number): string[] {
  const removed: string[] = [];
  const consider = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (!TEMPORARY.test(name)) continue;
      const path = join(dir, name);
      try {
        // mtime has a coarse clock on some file systems: a second of slack.
        if (statSync(path).mtimeMs < sinceMs - 1000 || processHolding(path) !== null) continue;
        unlinkSync(path);
        removed.push(path);
      } catch {
        // gone meanwhile, or not ours to remove
      }
    }
  };
  consider(join(objectsDir, 'pack'));
  let fanout: string[] = [];
  try {
    fanout = readdirSync(objectsDir).filter((d) => /^[0-9a-f]{2}$/.test(d));
  } catch {
    return removed;
  }
  for (const d of fanout) consider(join(objectsDir, d));
  return removed;
}
