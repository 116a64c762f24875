import { hashObject, type GitObject, type ObjectStore, type ObjectType } from './objects.js';

/**
 * Reads through to a real store, keeps writes in memory: a `--dry-run` computes the very
 * objects a real run would write (so it can say what would change) and writes nothing.
 */
export class OverlayStore implements ObjectStore {
  private readonly written = new Map<string, GitObject>();
  constructor(private readonly base: ObjectStore) {}

  async read(oid: string): Promise<GitObject | null> {
    return this.written.get(oid) ?? this.base.read(oid);
  }

  async write(type: ObjectType, data: Buffer): Promise<string> {
    const oid = hashObject(type, data);
    this.written.set(oid, { type, data });
    return oid;
  }
}
