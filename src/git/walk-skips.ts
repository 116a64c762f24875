/**
 * Bookkeeping commits the notes walk jumps over. A remote can send any number of commits
 * that record no version and move none (receipts, item records, policy, merges:
 * `recordsNothing`), dated in the future so that a walk newest first meets them all before
 * any version; read one by one in process they cost ~30 µs each, 100,000 of them seconds on
 * every `show` and every hook. Such commits are nothing to a reader of versions but the way
 * to their parents, so a region of them is recorded as "from `top`, the walk goes on at
 * `below`" (the commits first met outside the region, or not read yet), and the next walk
 * goes from `top` straight there.
 *
 * Whatever way the commits arrived (our `sync`, a plain `git fetch`, a native `git notes
 * merge`), the walk that meets a long run of them hands the region to git (`find`): one
 * `git rev-list | git cat-file --batch` streams the raw commits and the same rule reads
 * them, so the first reader pays about git's own walk of them, once.
 *
 * A fact about commits (objects never change), so it never goes out of date: a purge or a
 * fetch only leaves entries nobody asks for. Kept under `.git/handoff/walk-skips.json` as a
 * cache, at most MAX_SKIPS of them, the newest kept; a damaged file reads as none.
 */
import { join } from 'node:path';
import type { Repo } from './repo.js';
import { parseCommit } from './objects.js';
import { recordsNothing } from './handoff-store.js';
import { canStream } from './version-stream.js';
import { readJsonFile, writeJsonFile } from '../state/json-file.js';

const FORMAT = 2;
/** Runs shorter than this are walked (a few receipts between versions are the common case). */
export const MIN_SKIP = 256;
const MAX_SKIPS = 512;
/** A region left through more commits than this is walked (its record would be as long as the walk). */
const MAX_EXITS = 64;
const ID = /^[0-9a-f]{40,64}$/;

export interface Skip {
  /** where the walk goes on: the commits first met outside the region (or not read yet); none when it ends in root commits */
  below: string[];
  /** how many commits the region holds, `top` included */
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
        const ids = (x: unknown): x is string[] => Array.isArray(x) && x.length <= MAX_EXITS && x.every((b) => typeof b === 'string' && ID.test(b));
        if (typeof top === 'string' && ID.test(top) && ids(below) && Number.isInteger(length) && (length as number) > 0)
          out.set(top, { below, length: length as number });
      }
    return (this.loaded = out);
  }

  /** Where a walk at `top` goes next, when a region of bookkeeping commits starts there. */
  get(top: string): Skip | undefined {
    return this.all().get(top);
  }

  /** Records a region; a repository we may not write to just goes without. */
  record(top: string, skip: Skip): void {
    const all = this.all();
    const had = all.get(top);
    if (had && had.below.join() === skip.below.join()) return;
    all.delete(top);
    all.set(top, skip);
    while (all.size > MAX_SKIPS) all.delete(all.keys().next().value!);
    try {
      writeJsonFile(this.path(), { format: FORMAT, skips: [...all].map(([t, s]) => [t, s.below, s.length]) }, { compact: true });
    } catch {
      /* not written: the next walk reads the region again */
    }
  }

  /**
   * The region of commits that record nothing from `top` (itself one), read by git: every
   * commit reachable from `top` through such commits, and where it is left. At `deadline`
   * (ms since the epoch) it stops and names the commits not read yet among the way on (a
   * part of a region is a region). Null when the region is smaller than MIN_SKIP, is left
   * through more than MAX_EXITS commits, or git could not read it (then the walk reads on).
   */
  async find(top: string, deadline = Infinity): Promise<Skip | null> {
    if (!canStream(this.repo)) return null;
    const opts = { realObjects: true };
    const list = this.repo.startReadOnlyGit(['--no-replace-objects', 'rev-list', top, '--'], opts);
    const cat = this.repo.startReadOnlyGit(['cat-file', '--batch', '--buffer'], opts);
    for (const c of [list, cat]) {
      c.on('error', () => {});
      c.stdin.on('error', () => {});
      c.stderr.resume();
    }
    list.stdin.end();
    list.stdout.pipe(cat.stdin);
    const region = new Region(top);
    try {
      let rest: Buffer | null = null;
      let read = 0;
      for await (const chunk of cat.stdout as AsyncIterable<Buffer>) {
        const buf: Buffer = rest ? Buffer.concat([rest, chunk]) : chunk;
        let at = 0;
        for (;;) {
          const nl = buf.indexOf(10, at);
          if (nl < 0) break;
          const [id, type, sizeText] = buf.toString('latin1', at, nl).split(' ');
          if (type !== 'commit') return null;
          const size = Number(sizeText);
          if (buf.length < nl + 2 + size) break;
          const commit = parseCommit(buf.subarray(nl + 1, nl + 1 + size));
          at = nl + 2 + size;
          region.met(id, recordsNothing(commit) ? commit.parents : null);
          if (region.closed()) return region.skip();
          if (++read % 1024 === 0 && Date.now() > deadline) return region.skip();
        }
        rest = at < buf.length ? buf.subarray(at) : null;
      }
      return null; // git stopped before the region closed: it could not read something
    } finally {
      list.stdout.unpipe();
      list.kill();
      cat.kill();
    }
  }
}

/** A region being read in git's order (a parent may come before a child reached later: its facts wait). */
class Region {
  private readonly wanted: Set<string>;
  private readonly done = new Set<string>();
  private readonly exits: string[] = [];
  /** met before anything in the region led to it: its parents when it records nothing, else null */
  private readonly early = new Map<string, string[] | null>();
  private members = 0;

  constructor(top: string) {
    this.wanted = new Set([top]);
  }

  met(id: string, parents: string[] | null): void {
    if (!this.wanted.has(id)) {
      if (!this.done.has(id)) this.early.set(id, parents);
      return;
    }
    const stack: [string, string[] | null][] = [[id, parents]];
    while (stack.length) {
      const [c, ps] = stack.pop()!;
      this.wanted.delete(c);
      this.done.add(c);
      if (!ps) {
        this.exits.push(c);
        continue;
      }
      this.members++;
      for (const p of ps) {
        if (this.done.has(p) || this.wanted.has(p)) continue;
        const known = this.early.get(p);
        if (known === undefined) {
          this.wanted.add(p);
          continue;
        }
        this.early.delete(p);
        this.wanted.add(p);
        stack.push([p, known]);
      }
    }
  }

  closed(): boolean {
    return this.wanted.size === 0;
  }

  skip(): Skip | null {
    const below = [...this.exits, ...this.wanted];
    return this.members >= MIN_SKIP && below.length <= MAX_EXITS ? { below, length: this.members } : null;
  }
}
