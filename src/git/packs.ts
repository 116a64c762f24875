/**
 * Reads objects in-process: loose objects and pack files (index v2, OFS/REF deltas), in
 * the repository and every alternate object store git would use, touching only the bytes an
 * object needs: no whole-pack or whole-index load (docs/decisions/own-pack-reader.md: isomorphic-git's
 * reader loads whole packfiles). Three answers: the object; null, it is in none of these stores (the
 * caller asks `git cat-file`: promisor remotes); or an exception: ReaderDeclined where
 * only git can tell (a pack index v1), CorruptObject where git could not read it either.
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { objectStores } from './alternates.js';
import type { GitObject, ObjectType } from './objects.js';
import { CorruptObject, isHandoffError } from '../errors.js';

/** This reader cannot answer for this object; git can. */
export class ReaderDeclined extends Error {}

/** A pack listed a moment ago is gone (a repack replaced it): a reason to list the pack folder again, not damage. */
class PackVanished extends Error {}
const vanished = (e: unknown) => (e as NodeJS.ErrnoException | null)?.code === 'ENOENT';
/** git's own pack names; `.tmp-*` files beside them are a repack still writing. */
const PACK_INDEX = /^pack-[0-9a-f]{40}(?:[0-9a-f]{24})?\.idx$/;

const corrupt = (oid: string, why: string) => new CorruptObject(`object ${oid} is corrupt (${why}); 'git fsck' shows the damage`, { oid });

/** Bytes that do not decode: git could not read them either. */
class Damaged extends Error {}
/**
 * Whether `e` says the bytes are damaged (what `git fsck` would also report): zlib's
 * refusal, a length or offset past the end of what was read, or our own check. Anything
 * else (a missing function, a file that vanished) is not the repository's fault and is
 * never reported as corruption.
 */
const isDamage = (e: unknown): boolean =>
  e instanceof Damaged || e instanceof RangeError || /^Z_/.test(String((e as NodeJS.ErrnoException | null)?.code ?? ''));

/** node:zlib, loaded on the first object read: a command that reads none (sweep) does not pay for it. */
const inflateSync = (buf: Buffer): Buffer => process.getBuiltinModule('node:zlib').inflateSync(buf);

const TYPES: Record<number, ObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
const OFS_DELTA = 6;
const REF_DELTA = 7;

class Pack {
  private idxFd: number;
  private packFd = -1;
  private fanout: Uint32Array | null = null;
  /** The index's object ids by first byte, each read once: re-reading a bucket per lookup made a walk quadratic. */
  private buckets: (Buffer | undefined)[] = [];
  count = 0;

  constructor(readonly idxPath: string) {
    this.idxFd = openSync(idxPath, 'r');
  }

  private readAt(fd: number, pos: number, len: number): Buffer {
    const buf = Buffer.allocUnsafe(len);
    const n = readSync(fd, buf, 0, len, pos);
    return n === len ? buf : buf.subarray(0, n);
  }

  private loadFanout(): Uint32Array | null {
    if (this.fanout) return this.fanout;
    const head = this.readAt(this.idxFd, 0, 8 + 1024);
    // Index v2 only; v1 (no magic) and later versions are git's to read.
    if (head.length < 8 + 1024 || head.readUInt32BE(0) !== 0xff744f63 || head.readUInt32BE(4) !== 2) return null;
    const f = new Uint32Array(256);
    for (let i = 0; i < 256; i++) f[i] = head.readUInt32BE(8 + i * 4);
    this.fanout = f;
    this.count = f[255];
    return f;
  }

  /** The pack offset of `oid`, -1 when not in this pack, null when this reader cannot tell (index v1). */
  find(oid: string): number | null {
    const fanout = this.loadFanout();
    if (!fanout) return null;
    const first = parseInt(oid.slice(0, 2), 16);
    const lo = first === 0 ? 0 : fanout[first - 1];
    const hi = fanout[first];
    if (hi <= lo) return -1;
    const shas = (this.buckets[first] ??= this.readAt(this.idxFd, 8 + 1024 + lo * 20, (hi - lo) * 20));
    const want = Buffer.from(oid, 'hex');
    let a = 0;
    let b = hi - lo;
    while (a < b) {
      const mid = (a + b) >>> 1;
      const cmp = shas.compare(want, 0, 20, mid * 20, mid * 20 + 20);
      if (cmp === 0) return this.offsetAt(lo + mid);
      if (cmp < 0) a = mid + 1;
      else b = mid;
    }
    return -1;
  }

  private offsetAt(i: number): number {
    const base = 8 + 1024 + this.count * 24;
    const off = this.readAt(this.idxFd, base + i * 4, 4).readUInt32BE(0);
    if (!(off & 0x80000000)) return off;
    const big = this.readAt(this.idxFd, base + this.count * 4 + (off & 0x7fffffff) * 8, 8);
    return big.readUInt32BE(0) * 2 ** 32 + big.readUInt32BE(4);
  }

  /** Reads the entry at `offset`: a full object, or a delta with its base reference. Throws on a damaged entry. */
  entry(offset: number): { type: number; size: number; data: Buffer; baseOffset?: number; baseOid?: string } {
    if (this.packFd < 0) {
      try {
        this.packFd = openSync(this.idxPath.replace(/\.idx$/, '.pack'), 'r');
      } catch (e) {
        throw vanished(e) ? new PackVanished(this.idxPath) : e;
      }
    }
    let head = this.readAt(this.packFd, offset, 32);
    let p = 0;
    let c = head[p++];
    const type = (c >> 4) & 7;
    let size = c & 15;
    let shift = 4;
    while (c & 0x80) {
      c = head[p++];
      size += (c & 0x7f) * 2 ** shift;
      shift += 7;
    }
    let baseOffset: number | undefined;
    let baseOid: string | undefined;
    if (type === OFS_DELTA) {
      c = head[p++];
      let off = c & 127;
      while (c & 128) {
        c = head[p++];
        off = (off + 1) * 128 + (c & 127);
      }
      baseOffset = offset - off;
    } else if (type === REF_DELTA) {
      baseOid = head.toString('hex', p, p + 20);
      p += 20;
    }
    // Compressed data is at most a little longer than the inflated size; read, and if the
    // stream is cut short (incompressible data), read more.
    let want = size + 64 + (size >> 6);
    for (;;) {
      head = this.readAt(this.packFd, offset + p, want);
      try {
        const data = inflateSync(head);
        if (data.length !== size) throw new Damaged(`entry at ${offset} inflates to ${data.length} bytes, not ${size}`);
        return { type, size, data, baseOffset, baseOid };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'Z_BUF_ERROR' || head.length < want) throw e;
        want *= 2;
      }
    }
  }

  close(): void {
    closeSync(this.idxFd);
    if (this.packFd >= 0) closeSync(this.packFd);
  }
}

export function applyDelta(base: Buffer, delta: Buffer): Buffer {
  let i = 0;
  const varint = () => {
    let r = 0;
    let s = 0;
    let b: number;
    do {
      b = delta[i++];
      r += (b & 0x7f) * 2 ** s;
      s += 7;
    } while (b & 0x80);
    return r;
  };
  const srcSize = varint();
  if (srcSize !== base.length) throw new Damaged('delta base size mismatch');
  const out = Buffer.allocUnsafe(varint());
  let o = 0;
  while (i < delta.length) {
    const op = delta[i++];
    if (op & 0x80) {
      let off = 0;
      let size = 0;
      if (op & 0x01) off += delta[i++];
      if (op & 0x02) off += delta[i++] * 0x100;
      if (op & 0x04) off += delta[i++] * 0x10000;
      if (op & 0x08) off += delta[i++] * 0x1000000;
      if (op & 0x10) size += delta[i++];
      if (op & 0x20) size += delta[i++] * 0x100;
      if (op & 0x40) size += delta[i++] * 0x10000;
      if (size === 0) size = 0x10000;
      base.copy(out, o, off, off + size);
      o += size;
    } else if (op) {
      delta.copy(out, o, i, i + op);
      i += op;
      o += op;
    } else throw new Damaged('bad delta opcode');
  }
  if (o !== out.length) throw new Damaged('delta result size mismatch');
  return out;
}

/** The type and contents of a loose object file, or an Error saying what is wrong with it. */
function parseLoose(raw: Buffer): GitObject | Error {
  let body: Buffer;
  try {
    body = inflateSync(raw);
  } catch (e) {
    if (!isDamage(e)) throw e;
    return e as Error;
  }
  const sp = body.indexOf(0x20);
  const nul = sp < 0 ? -1 : body.indexOf(0, sp);
  const type = sp < 0 ? '' : body.toString('latin1', 0, sp);
  const size = nul < 0 ? NaN : Number(body.toString('latin1', sp + 1, nul));
  if (!['commit', 'tree', 'blob', 'tag'].includes(type) || !/^\d+$/.test(body.toString('latin1', sp + 1, nul)) || body.length - nul - 1 !== size) {
    return new Damaged('bad object header');
  }
  return { type: type as ObjectType, data: body.subarray(nul + 1) };
}

export class InProcessObjects {
  private packs: Pack[] | null = null;
  private packDirStamps = '';
  private dirs: string[];
  private bases = new Map<string, { type: number; data: Buffer }>();

  constructor(objectsDir: string) {
    this.dirs = objectStores(objectsDir);
  }

  /** The object stores read, the repository's own first (for tests and diagnostics). */
  get stores(): readonly string[] {
    return this.dirs;
  }

  private stamps(): string {
    return this.dirs.map((d) => statSync(join(d, 'pack'), { throwIfNoEntry: false })?.mtimeMs ?? 0).join(',');
  }

  private loadPacks(): Pack[] {
    if (this.packs) return this.packs;
    this.packDirStamps = this.stamps();
    const found: { path: string; mtime: number }[] = [];
    for (const d of this.dirs) {
      let names: string[] = [];
      try {
        names = readdirSync(join(d, 'pack'));
      } catch {}
      for (const n of names) {
        if (!PACK_INDEX.test(n)) continue;
        const path = join(d, 'pack', n);
        try {
          found.push({ path, mtime: statSync(path).mtimeMs });
        } catch {}
      }
    }
    // Newest packs first, as git searches them; one removed since the listing is skipped.
    const packs: Pack[] = [];
    for (const f of found.sort((a, b) => b.mtime - a.mtime)) {
      try {
        packs.push(new Pack(f.path));
      } catch (e) {
        if (!vanished(e)) {
          for (const p of packs) p.close();
          throw e;
        }
      }
    }
    this.packs = packs;
    return packs;
  }

  /**
   * The object; null when it is in none of the stores; throws ReaderDeclined when only git
   * can tell, CorruptObject when every copy found is damaged (git reports the same object
   * as missing in `cat-file --batch`: corruption must not pass for absence).
   */
  read(oid: string): GitObject | null {
    // A repack beside us replaces packs: each time one listed has vanished, list them again
    // (git's reprepare_packed_git); past a few rounds git answers.
    for (let round = 0; ; round++) {
      try {
        return this.readOnce(oid);
      } catch (e) {
        if (!(e instanceof PackVanished)) throw e;
        this.close();
        if (round >= 4) throw new ReaderDeclined(`packs kept vanishing while ${oid} was read`);
      }
    }
  }

  private readOnce(oid: string): GitObject | null {
    // git looks in packs first and falls back to a loose copy; a damaged loose copy with a
    // good packed one is therefore no error. Packs first here too: most objects of a large
    // history are packed, and a failed open per object was a tenth of a long walk.
    let found: GitObject | null | 'declined' | Error;
    try {
      found = this.readPacked(oid);
    } catch (e) {
      if (!isHandoffError(e, CorruptObject)) throw e;
      found = e;
    }
    if (found && found !== 'declined' && !(found instanceof Error)) return found;
    let damaged: Error | null = null;
    for (const d of this.dirs) {
      let raw: Buffer;
      try {
        raw = readFileSync(join(d, oid.slice(0, 2), oid.slice(2)));
      } catch {
        continue;
      }
      const obj = parseLoose(raw);
      if (!(obj instanceof Error)) return obj;
      damaged ??= obj;
    }
    if (found === 'declined') throw new ReaderDeclined(`a pack index this reader does not read may hold ${oid}`);
    if (isHandoffError(found, CorruptObject)) throw found;
    if (found instanceof Error) throw corrupt(oid, found.message);
    if (damaged) throw corrupt(oid, damaged.message);
    return null;
  }

  private readPacked(oid: string): GitObject | null | 'declined' | Error {
    let undecided = false;
    let damaged: Error | null = null;
    for (const pack of this.loadPacks()) {
      const off = pack.find(oid);
      if (off === null) {
        undecided = true;
        continue;
      }
      if (off < 0) continue;
      try {
        const obj = this.resolveAt(pack, off, 0);
        if (obj && TYPES[obj.type]) return { type: TYPES[obj.type], data: obj.data };
        if (obj) damaged ??= new Damaged(`pack entry of type ${obj.type}`);
        else undecided = true; // a REF_DELTA base git may find elsewhere
      } catch (e) {
        if (e instanceof ReaderDeclined) undecided = true;
        else if (isHandoffError(e, CorruptObject) || !isDamage(e)) throw e;
        else damaged ??= e as Error;
      }
    }
    return damaged ?? (undecided ? 'declined' : null);
  }

  private resolveAt(pack: Pack, offset: number, depth: number): { type: number; data: Buffer } | null {
    const key = `${pack.idxPath}:${offset}`;
    const hit = this.bases.get(key);
    if (hit) return hit;
    if (depth > 100) throw new ReaderDeclined('delta chain too deep');
    const e = pack.entry(offset);
    let result: { type: number; data: Buffer } | null;
    if (e.type === OFS_DELTA) {
      const base = this.resolveAt(pack, e.baseOffset!, depth + 1);
      result = base && { type: base.type, data: applyDelta(base.data, e.data) };
    } else if (e.type === REF_DELTA) {
      const base = this.read(e.baseOid!);
      const t = base ? Number(Object.keys(TYPES).find((k) => TYPES[Number(k)] === base.type)) : 0;
      result = base && { type: t, data: applyDelta(base.data, e.data) };
    } else {
      result = { type: e.type, data: e.data };
    }
    // Keep delta bases of trees and commits: the notes walk reads many siblings.
    if (result && result.data.length < 1 << 20) {
      if (this.bases.size > 512) this.bases.clear();
      this.bases.set(key, result);
    }
    return result;
  }

  /** Forget the pack list when another process may have repacked (a pack folder changed since it was read). */
  rescan(): boolean {
    if (this.packs && this.stamps() === this.packDirStamps) return false;
    this.close();
    return true;
  }

  close(): void {
    for (const p of this.packs ?? []) p.close();
    this.packs = null;
  }
}
