/**
 * The in-memory backend for fast store tests (docs/architecture.md "Tests"): isomorphic-git encodes, hashes and stores loose objects in a memfs volume.
 * `MemoryRepo` adds the refs a HandoffStore needs, with a hook that lets a test land a
 * competing update between a writer's read and its compare-and-swap.
 */
import { Volume, createFsFromVolume } from 'memfs';
import * as git from 'isomorphic-git';
import { hashObject, serializeTree, type GitObject, type ObjectStore, type ObjectType, type TreeEntry } from '../../src/git/objects.js';
import type { CasResult, Repo } from '../../src/git/repo.js';

const GITDIR = '/repo/.git';

export class MemfsObjectStore implements ObjectStore {
  reads = 0;
  writes = 0;
  private constructor(readonly fs: ReturnType<typeof createFsFromVolume>) {}

  static async create(): Promise<MemfsObjectStore> {
    const fs = createFsFromVolume(new Volume());
    await git.init({ fs, dir: '/repo', defaultBranch: 'main' });
    return new MemfsObjectStore(fs);
  }

  async read(oid: string): Promise<GitObject | null> {
    this.reads++;
    try {
      const r = await git.readObject({ fs: this.fs, gitdir: GITDIR, oid, format: 'content' });
      return { type: r.type as ObjectType, data: Buffer.from(r.object as Uint8Array) };
    } catch (e) {
      if ((e as { code?: string }).code === 'NotFoundError') return null;
      throw e;
    }
  }

  async write(type: ObjectType, data: Buffer): Promise<string> {
    this.writes++;
    const oid = await git.writeObject({ fs: this.fs, gitdir: GITDIR, type, object: data, format: 'content' });
    // isomorphic-git and our own encoder must agree on every id (`git hash-object` semantics)
    if (oid !== hashObject(type, data)) throw new Error(`hash mismatch for ${type}: ${oid} vs ${hashObject(type, data)}`);
    return oid;
  }

  blob(text: string): Promise<string> {
    return this.write('blob', Buffer.from(text, 'utf8'));
  }

  tree(entries: TreeEntry[]): Promise<string> {
    return this.write('tree', serializeTree(entries));
  }
}

/** Just enough of `Repo` for HandoffStore: objects, refs with compare-and-swap, config. */
export class MemoryRepo {
  readonly refs = new Map<string, string>();
  readonly reflog: { ref: string; old: string | null; new: string; message: string }[] = [];
  readonly config = new Map<string, string>();
  /** runs once per CAS attempt, before the swap: a competing writer lands here */
  beforeCas: ((ref: string) => Promise<void>) | null = null;
  casAttempts = 0;

  constructor(readonly objects: MemfsObjectStore) {}

  static async create(): Promise<MemoryRepo> {
    return new MemoryRepo(await MemfsObjectStore.create());
  }

  asRepo(): Repo {
    return this as unknown as Repo;
  }

  async resolveRef(ref: string): Promise<string | null> {
    return this.refs.get(ref) ?? null;
  }

  async casUpdateRef(ref: string, newOid: string, oldOid: string | null, message: string): Promise<CasResult> {
    this.casAttempts++;
    if (this.beforeCas) await this.beforeCas(ref);
    if ((this.refs.get(ref) ?? null) !== oldOid) return 'moved';
    this.refs.set(ref, newOid);
    this.reflog.push({ ref, old: oldOid, new: newOid, message });
    return 'ok';
  }

  async configInt(key: string, fallback: number): Promise<number> {
    const v = this.config.get(key);
    return v === undefined ? fallback : Number(v);
  }

  async configBool(key: string, fallback = false): Promise<boolean> {
    const v = this.config.get(key);
    return v === undefined ? fallback : ['true', 'yes', 'on', '1'].includes(v.toLowerCase());
  }

  async configGet(key: string): Promise<string | undefined> {
    return this.config.get(key);
  }

  async configAll(key: string): Promise<string[]> {
    const v = this.config.get(key);
    return v === undefined ? [] : [v];
  }

  refLockPath(ref: string): string {
    return `${GITDIR}/${ref}.lock`;
  }

  headBranch(): string | null {
    return 'main';
  }
}
