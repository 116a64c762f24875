/**
 * Work-item bookkeeping in the notes tree (docs/format.md): item records
 * at `items/<provider>/<n>.json`, receipts at `receipts/<id>.json`, approved policy hashes
 * at `policy/approved`. They are not versions: every commit carries `Handoff-Kind:
 * receipt|item|policy`, which `log`, `show` and `~N` skip.
 */
import type { Repo } from './repo.js';
import { APPROVED_POLICY_PATH, approvedList, approvedText } from '../core/policy.js';
import { HandoffStore } from './handoff-store.js';
import { listPath, readPath, writePath } from './notes-tree.js';
import { EMPTY_TREE_OID } from './objects.js';
import { itemPath, parseItem, serializeItem, type ItemRecord, type WorkItemRef } from '../core/work-item.js';
import { parseReceipt, serializeReceipt, type Receipt } from '../core/receipt.js';
import { TransitionRefused } from '../errors.js';
import { isRecordTombstone } from '../core/purge.js';
import { resolveIdentities, type Identities } from './identity.js';

export { APPROVED_POLICY_PATH };

export interface StoredItem {
  record: ItemRecord | null;
  /** the record's blob id (null: none yet): the compare-and-swap guard of the next change */
  blob: string | null;
  problem: string | null;
  /** the record is a purge's tombstone (`purge <path>` removed a leaked secret from it): read as no record, not as a damaged one */
  purged?: boolean;
}

export interface ItemChange {
  kind: 'receipt' | 'item' | 'policy';
  subject: string;
  trailers?: Record<string, string>;
  /** the item to write, guarded by the blob it was read as */
  item?: { ref: WorkItemRef; record: ItemRecord; expectBlob: string | null };
  receipts?: Receipt[];
  /** a policy hash to add to `policy/approved` (merged with the tip's list, so a concurrent approval is kept) */
  approvePolicy?: string;
}

/** Reads at one snapshot of the notes tip; writes through `HandoffStore.commit`. */
export class ItemStore {
  readonly store: HandoffStore;
  private rootTree: Promise<string> | null = null;
  private ids: Promise<Identities> | null = null;

  constructor(readonly repo: Repo) {
    this.store = new HandoffStore(repo);
  }

  /** Who and when: resolved once, so a receipt's `at` is exactly its notes commit's time. */
  identities(): Promise<Identities> {
    this.ids ??= resolveIdentities(this.repo);
    return this.ids;
  }

  private root(): Promise<string> {
    this.rootTree ??= this.store.tip().then(async (tip) => (tip ? (await this.store.readCommit(tip)).tree : EMPTY_TREE_OID));
    return this.rootTree;
  }

  private async text(blob: string | null): Promise<string | null> {
    if (!blob) return null;
    const obj = await this.repo.objects.read(blob);
    return obj ? obj.data.toString('utf8') : null;
  }

  async item(ref: WorkItemRef): Promise<StoredItem> {
    const blob = await readPath(this.repo.objects, await this.root(), itemPath(ref));
    const text = await this.text(blob);
    if (text === null) return { record: null, blob, problem: null };
    if (isRecordTombstone(text)) return { record: null, blob, problem: null, purged: true };
    const parsed = parseItem(text);
    if ('problem' in parsed) return { record: null, blob, problem: `${itemPath(ref)} in ${'refs/notes/handoff'} is damaged: ${parsed.problem}` };
    return { record: parsed, blob, problem: null };
  }

  async receipt(id: string): Promise<Receipt | null> {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id)) return null;
    const text = await this.text(await readPath(this.repo.objects, await this.root(), `receipts/${id}.json`));
    return text === null ? null : parseReceipt(text);
  }

  /** Ids of every receipt in the notes. */
  async receiptIds(): Promise<Set<string>> {
    const entries = await listPath(this.repo.objects, await this.root(), 'receipts');
    return new Set(entries.filter((e) => e.name.endsWith('.json')).map((e) => e.name.slice(0, -5)));
  }

  /** Every item record, github then local, by number. */
  async items(): Promise<ItemRecord[]> {
    const out: ItemRecord[] = [];
    for (const provider of ['github', 'local']) {
      const entries = await listPath(this.repo.objects, await this.root(), `items/${provider}`);
      const sorted = entries.filter((e) => /^\d+\.json$/.test(e.name)).sort((a, b) => parseInt(a.name, 10) - parseInt(b.name, 10));
      for (const e of sorted) {
        const text = await this.text(e.oid);
        const parsed = text === null ? null : parseItem(text);
        if (parsed && !('problem' in parsed)) out.push(parsed);
      }
    }
    return out;
  }

  async approvedPolicies(): Promise<string[]> {
    return approvedList(await this.text(await readPath(this.repo.objects, await this.root(), APPROVED_POLICY_PATH)));
  }

  /**
   * One commit with every write of a change: all of it lands or none of it does. The item
   * is written only if it still holds the blob it was read as; a concurrent change refuses.
   */
  async apply(change: ItemChange): Promise<string> {
    const objects = this.repo.objects;
    const receiptBlobs = await Promise.all(
      (change.receipts ?? []).map(async (r) => ({ id: r.id, blob: await objects.write('blob', Buffer.from(serializeReceipt(r))) })),
    );
    const itemBlob = change.item ? await objects.write('blob', Buffer.from(serializeItem(change.item.record))) : null;
    const id = await this.store.commit(
      change.kind,
      async (root) => {
        let tree = root;
        for (const r of receiptBlobs) tree = await writePath(objects, tree, `receipts/${r.id}.json`, r.blob);
        if (change.item && itemBlob) {
          const path = itemPath(change.item.ref);
          const current = await readPath(objects, root, path);
          if (current !== change.item.expectBlob) {
            throw new TransitionRefused(`${change.item.ref.text} was changed by another command meanwhile; run the command again`);
          }
          tree = await writePath(objects, tree, path, itemBlob);
        }
        if (change.approvePolicy) {
          // Read from the root this attempt builds on, not from this store's snapshot.
          const approved = approvedList(await this.text(await readPath(objects, root, APPROVED_POLICY_PATH)));
          if (!approved.includes(change.approvePolicy)) {
            const blob = await objects.write('blob', Buffer.from(approvedText([...approved, change.approvePolicy])));
            tree = await writePath(objects, tree, APPROVED_POLICY_PATH, blob);
          }
        }
        return tree;
      },
      { subject: change.subject, trailers: change.trailers, identities: await this.identities() },
    );
    this.rootTree = null;
    return id;
  }
}
