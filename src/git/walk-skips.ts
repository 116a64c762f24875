/**
 * Runs of bookkeeping commits the notes walk jumps over. A remote can send any number of
 * bookkeeping commits (receipts, item records, policy: a `Handoff-Kind` other than
 * `version`), dated in the future so that a walk newest first meets them all before any
 * version; reading each costs a pack lookup and an inflate, 100,000 of them seconds on every
 * `show` and every hook. Such a commit records no version and moves none, whatever its parent
 * (docs/format.md "Which commits are versions"), so a line of them is nothing to a reader of
 * versions but its length: the walk that met one records "from `top`, the first commit below
 * the line is `below`", and the next walk goes from `top` straight there.
 *
 * A fact about commits (objects never change), so it never goes out of date: a purge or a
 * fetch only leaves entries nobody asks for. Kept under `.git/handoff/walk-skips.json` as a
 * cache, at most MAX_SKIPS of them, the newest kept; a damaged file reads as none.
 */
import { join } from 'node:path';
import type { Repo } from './repo.js';
import { readJsonFile, writeJsonFile } from '../state/json-file.js';

const FORMAT = 1;
/** Lines shorter than this are walked (a few receipts between versions are the common case). */
export const MIN_SKIP = 256;
const MAX_SKIPS = 512;
const ID = /^[0-9a-f]{40,64}$/;

export interface Skip {
  /** the first commit below the line */
  below: string;
  /** how many commits the line holds */
  length: number;
}

export class WalkSkips {
  private loaded: Map<string, Skip> | null = null;

  constructor(private readonly repo: Repo) {}

  private path(): string {
    return join(this.repo.paths.commonDir, 'handoff', 'walk-skips.json');
  }

  private all(): Map<string, Skip> {
    if (this.loaded) return this.loaded;
    const out = new Map<string, Skip>();
    let v: { format?: unknown; skips?: unknown } | null = null;
    try {
      v = readJsonFile(this.path());
    } catch {
      /* a repository without paths (the tests' in-memory store) keeps none */
    }
    if (v?.format === FORMAT && Array.isArray(v.skips))
      for (const s of v.skips as unknown[]) {
        if (!Array.isArray(s) || s.length !== 3) continue;
        const [top, below, length] = s as unknown[];
        if (typeof top === 'string' && ID.test(top) && typeof below === 'string' && ID.test(below) && Number.isInteger(length) && (length as number) > 0)
          out.set(top, { below, length: length as number });
      }
    return (this.loaded = out);
  }

  /** Where a walk at `top` goes next, when a line of bookkeeping commits starts there. */
  get(top: string): Skip | undefined {
    return this.all().get(top);
  }

  /** Records a line; a repository we may not write to just goes without. */
  record(top: string, skip: Skip): void {
    const all = this.all();
    if (all.get(top)?.below === skip.below) return;
    all.delete(top);
    all.set(top, skip);
    while (all.size > MAX_SKIPS) all.delete(all.keys().next().value!);
    try {
      writeJsonFile(this.path(), { format: FORMAT, skips: [...all].map(([t, s]) => [t, s.below, s.length]) }, { compact: true });
    } catch {
      /* not written: the next walk reads the line again */
    }
  }
}
