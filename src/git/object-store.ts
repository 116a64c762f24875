import { mkdirSync, existsSync, writeFileSync, renameSync, rmdirSync, unlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { CatFileBatch } from './catfile.js';
import { InProcessObjects, ReaderDeclined } from './packs.js';
import { hashObject, type GitObject, type ObjectStore, type ObjectType } from './objects.js';
import { isObjectId } from '../core/object-id.js';

/**
 * The object store of a real repository: reads through one `git cat-file --batch`,
 * writes loose objects in-process exactly as git does (zlib-deflated `<type> <len>\0<data>`
 * at objects/xx/yyyy, written to a temporary file and renamed), which costs no process.
 */
let tmpCounter = 0;

/**
 * Whether the loose object is there, its time made now (git's freshen_loose_object): an
 * old unreachable copy about to be referenced again must not look old to `git gc`'s prune.
 */
function freshened(file: string): boolean {
  try {
    const now = new Date();
    utimesSync(file, now, now);
    return true;
  } catch {
    return false;
  }
}
/** Bounds of the read cache: enough for every object one command reads twice, not a whole history. */
const CACHE_BYTES = 32 << 20;
const CACHE_ENTRIES = 20000;

export class GitObjectStore implements ObjectStore {
  private readonly batch: CatFileBatch;
  private readonly cache = new Map<string, GitObject>();
  private cachedBytes = 0;

  private readonly local: InProcessObjects;

  constructor(
    gitDir: string,
    private readonly objectsDir: string,
  ) {
    this.batch = new CatFileBatch(gitDir);
    this.local = new InProcessObjects(objectsDir);
  }

  async read(oid: string): Promise<GitObject | null> {
    const hit = this.cache.get(oid);
    if (hit) return hit;
    let obj: GitObject | null = null;
    if (isObjectId(oid)) {
      // Only a decline is handed to git; a corrupt object is an error here as in git (its
      // `cat-file --batch` would report it "missing"), never taken for an absent one.
      try {
        obj = this.local.read(oid);
        // Not found: read again only if a pack folder changed (another process repacked).
        if (!obj && this.local.rescan()) obj = this.local.read(oid);
      } catch (e) {
        if (!(e instanceof ReaderDeclined)) throw e;
      }
    }
    // Whatever this process cannot read itself, git can (promisor remotes, pack index v1).
    obj ??= await this.batch.read(oid);
    if (obj && isObjectId(oid)) this.remember(oid, obj);
    return obj;
  }

  /**
   * Keeps an object for the next read, within a bound: a walk over 50,000 versions reads
   * some 200,000 objects once each, and keeping them all cost 2 GiB. Past the
   * bound the cache starts again; a later read goes back to the pack.
   */
  private remember(oid: string, obj: GitObject): void {
    if (this.cachedBytes + obj.data.length > CACHE_BYTES || this.cache.size >= CACHE_ENTRIES) {
      this.cache.clear();
      this.cachedBytes = 0;
    }
    this.cache.set(oid, obj);
    this.cachedBytes += obj.data.length;
  }

  /** Resolves a revision expression (`HEAD`, `refs/...`, `<commit>:<path>`) through cat-file. */
  readRev(rev: string): Promise<GitObject | null> {
    return this.batch.read(rev);
  }

  async write(type: ObjectType, data: Buffer): Promise<string> {
    const oid = hashObject(type, data);
    if (this.cache.has(oid)) return oid;
    const dir = join(this.objectsDir, oid.slice(0, 2));
    const file = join(dir, oid.slice(2));
    if (!freshened(file)) {
      const body = process.getBuiltinModule('node:zlib').deflateSync(Buffer.concat([Buffer.from(`${type} ${data.length}\0`), data]));
      // `git prune-packed` removes an empty fan-out folder the moment after it was made; git
      // makes it again and retries (create_tmpfile), and so do we, a few times.
      for (let attempt = 1; ; attempt++) {
        const madeDir = mkdirSync(dir, { recursive: true }) !== undefined;
        const tmp = join(dir, `tmp_obj_${process.pid}_${Date.now().toString(36)}_${(tmpCounter++).toString(36)}`);
        try {
          writeFileSync(tmp, body, { mode: 0o444 });
          renameSync(tmp, file);
          break;
        } catch (e) {
          // A full disk or no inodes: leave no partial temporary file behind.
          try {
            unlinkSync(tmp);
          } catch {}
          if (madeDir) {
            try {
              rmdirSync(dir);
            } catch {}
          }
          if (existsSync(file)) break;
          if ((e as NodeJS.ErrnoException).code === 'ENOENT' && attempt < 5) continue;
          throw e;
        }
      }
    }
    this.remember(oid, { type, data });
    return oid;
  }

  close(): void {
    this.local.close();
    this.batch.close();
  }
}
