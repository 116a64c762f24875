import { mkdirSync, existsSync, writeFileSync, renameSync, unlinkSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { CatFileBatch } from './catfile.js';
import { hashObject, type GitObject, type ObjectStore, type ObjectType } from './objects.js';

/**
 * The object store of a real repository: reads through one `git cat-file --batch`,
 * writes loose objects in-process exactly as git does (zlib-deflated `<type> <len>\0<data>`
 * at objects/xx/yyyy, written to a temporary file and renamed), which costs no process.
 */
export class GitObjectStore implements ObjectStore {
  private readonly batch: CatFileBatch;
  private readonly cache = new Map<string, GitObject>();

  constructor(gitDir: string, private readonly objectsDir: string) {
    this.batch = new CatFileBatch(gitDir);
  }

  async read(oid: string): Promise<GitObject | null> {
    const hit = this.cache.get(oid);
    if (hit) return hit;
    const obj = this.readLoose(oid) ?? (await this.batch.read(oid));
    if (obj && /^[0-9a-f]{40}$/.test(oid)) this.cache.set(oid, obj);
    return obj;
  }

  /**
   * A loose object read in-process (what git just wrote usually is loose), so a hook that
   * reads a few fresh objects starts no git process. Packed objects go through cat-file.
   */
  private readLoose(oid: string): GitObject | null {
    if (!/^[0-9a-f]{40}$/.test(oid)) return null;
    let raw: Buffer;
    try {
      raw = inflateSync(readFileSync(join(this.objectsDir, oid.slice(0, 2), oid.slice(2))));
    } catch {
      return null;
    }
    const nul = raw.indexOf(0);
    const [type, len] = raw.toString('latin1', 0, nul).split(' ');
    const data = raw.subarray(nul + 1);
    if (nul < 0 || Number(len) !== data.length || !['blob', 'tree', 'commit', 'tag'].includes(type)) return null;
    return { type: type as ObjectType, data };
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
    if (!existsSync(file)) {
      mkdirSync(dir, { recursive: true });
      const tmp = join(dir, `tmp_obj_${randomBytes(6).toString('hex')}`);
      const body = deflateSync(Buffer.concat([Buffer.from(`${type} ${data.length}\0`), data]));
      writeFileSync(tmp, body, { mode: 0o444 });
      try {
        renameSync(tmp, file);
      } catch (e) {
        try {
          unlinkSync(tmp);
        } catch {}
        if (!existsSync(file)) throw e;
      }
    }
    this.cache.set(oid, { type, data });
    return oid;
  }

  close(): void {
    this.batch.close();
  }
}
