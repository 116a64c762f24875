/**
 * Reads objects in-process: loose objects and pack files (index v2, OFS/REF deltas),
 * touching only the bytes an object needs: no whole-pack or whole-index load (DESIGN.md:
 * isomorphic-git's reader loads whole packfiles). Returns null for an object it cannot
 * find, and the caller asks `git cat-file` (promisor remotes, index v1, odd setups).
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { GitObject, ObjectType } from './objects.js';

/** node:zlib, loaded on the first object read: a command that reads none (sweep) does not pay for it. */
const inflateSync = (buf: Buffer): Buffer => process.getBuiltinModule('node:zlib').inflateSync(buf);

const TYPES: Record<number, ObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
const OFS_DELTA = 6;
const REF_DELTA = 7;

class Pack {
  private idxFd: number;
  private packFd = -1;
  private fanout: Uint32Array | null = null;
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
    if (head.readUInt32BE(0) !== 0xff744f63 || head.readUInt32BE(4) !== 2) return null; // only index v2
    const f = new Uint32Array(256);
    for (let i = 0; i < 256; i++) f[i] = head.readUInt32BE(8 + i * 4);
    this.fanout = f;
    this.count = f[255];
    return f;
  }

  /** The pack offset of `oid`, or -1. */
  find(oid: string): number {
    const fanout = this.loadFanout();
    if (!fanout) throw new Error('unsupported pack index');
    const first = parseInt(oid.slice(0, 2), 16);
    const lo = first === 0 ? 0 : fanout[first - 1];
    const hi = fanout[first];
    if (hi <= lo) return -1;
    const shas = this.readAt(this.idxFd, 8 + 1024 + lo * 20, (hi - lo) * 20);
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

  /** Reads the entry at `offset`: a full object, or a delta with its base reference. */
  entry(offset: number): { type: number; size: number; data: Buffer; baseOffset?: number; baseOid?: string } {
    if (this.packFd < 0) this.packFd = openSync(this.idxPath.replace(/\.idx$/, '.pack'), 'r');
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
  if (srcSize !== base.length) throw new Error('delta base size mismatch');
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
    } else throw new Error('bad delta opcode');
  }
  if (o !== out.length) throw new Error('delta result size mismatch');
  return out;
}

export class InProcessObjects {
  private packs: Pack[] | null = null;
  private dirs: string[];
  private bases = new Map<string, { type: number; data: Buffer }>();

  constructor(objectsDir: string) {
    this.dirs = [objectsDir, ...alternates(objectsDir)];
  }

  private loadPacks(): Pack[] {
    if (this.packs) return this.packs;
    const found: { path: string; mtime: number }[] = [];
    for (const d of this.dirs) {
      let names: string[] = [];
      try {
        names = readdirSync(join(d, 'pack'));
      } catch {}
      for (const n of names) {
        if (!n.endsWith('.idx')) continue;
        const path = join(d, 'pack', n);
        try {
          found.push({ path, mtime: statSync(path).mtimeMs });
        } catch {}
      }
    }
    // Newest packs first, as git searches them.
    this.packs = found.sort((a, b) => b.mtime - a.mtime).map((f) => new Pack(f.path));
    return this.packs;
  }

  /** The object, or null when it is not here (or not readable in-process). */
  read(oid: string): GitObject | null {
    for (const d of this.dirs) {
      let raw: Buffer;
      try {
        raw = readFileSync(join(d, oid.slice(0, 2), oid.slice(2)));
      } catch {
        continue;
      }
      const body = inflateSync(raw);
      const sp = body.indexOf(0x20);
      const nul = body.indexOf(0, sp);
      return { type: body.toString('latin1', 0, sp) as ObjectType, data: body.subarray(nul + 1) };
    }
    for (const pack of this.loadPacks()) {
      const off = pack.find(oid);
      if (off < 0) continue;
      const obj = this.resolveAt(pack, off, 0);
      return obj && TYPES[obj.type] ? { type: TYPES[obj.type], data: obj.data } : null;
    }
    return null;
  }

  private resolveAt(pack: Pack, offset: number, depth: number): { type: number; data: Buffer } | null {
    const key = `${pack.idxPath}:${offset}`;
    const hit = this.bases.get(key);
    if (hit) return hit;
    if (depth > 100) throw new Error('delta chain too deep');
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

  /** Forget the pack list (another process may have repacked). */
  rescan(): void {
    for (const p of this.packs ?? []) p.close();
    this.packs = null;
  }

  close(): void {
    this.rescan();
  }
}

function alternates(objectsDir: string): string[] {
  if (!existsSync(join(objectsDir, 'info', 'alternates'))) return [];
  try {
    return readFileSync(join(objectsDir, 'info', 'alternates'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => resolve(objectsDir, l));
  } catch {
    return [];
  }
}
