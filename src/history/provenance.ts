/**
 * The provenance of versions (../core/provenance.ts): the author from the notes commit, the
 * origin from this clone's own record of what it wrote (the reflog of refs/notes/handoff,
 * which nothing fetched can write: an entry of our writer, `handoff: version`, or of native
 * `git notes` run here, `notes: ...`, whose new value is that commit) and else the remote
 * whose fetched history (`refs/notes/remotes/<remote>/handoff`) holds it, and the signature
 * as git verifies it (./signing.ts). A version of unknown origin is not the user's own.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Repo } from '../git/repo.js';
import { NOTES_REF } from '../git/repo.js';
import { commitAuthor } from '../git/objects.js';
import { hasSignature, verifySignatures } from '../git/signing.js';
import type { Provenance } from '../core/provenance.js';

/** Reflog messages of a version made in this clone: our writer, native `git notes` (add, copy on amend or rebase). */
const MADE_HERE = /\t(handoff: version|notes: [^\n]*)$/;
const TRACKING = /^refs\/notes\/remotes\/(.+)\/handoff$/;
/** Past this many versions asked at once, each remote's history is listed rather than asked per version. */
const ASK_EACH = 4;

export class ProvenanceReader {
  private local: Set<string> | null = null;
  private remotes: { name: string; ref: string; all?: Set<string> }[] | null = null;

  constructor(readonly repo: Repo) {}

  /**
   * The provenance of each version, asked together (one git process per kind of question at
   * most). `commits` may hold the bytes of some of their commits, already read (log's bulk reader).
   */
  async of(ids: string[], commits?: Map<string, Buffer>): Promise<Map<string, Provenance>> {
    const local = this.localSet();
    const signed: string[] = [];
    const authors = new Map<string, { name: string; email: string }>();
    for (const id of ids) {
      const known = commits?.get(id);
      const raw = known ? { type: 'commit', data: known } : await this.repo.objects.read(id);
      if (!raw || raw.type !== 'commit') continue;
      // The header alone (the author, a signature): 50,000 messages need not be decoded.
      const end = raw.data.indexOf('\n\n');
      const header = end < 0 ? raw.data : raw.data.subarray(0, end);
      const author = commitAuthor(header);
      authors.set(id, { name: author.name, email: author.email });
      if (hasSignature(header)) signed.push(id);
    }
    const sigs = await verifySignatures(this.repo, signed);
    const origins = await this.remoteOrigins(ids.filter((id) => !local.has(id)));
    const out = new Map<string, Provenance>();
    for (const id of ids) {
      out.set(id, {
        author: authors.get(id) ?? { name: '', email: '' },
        origin: local.has(id) ? 'local' : (origins.get(id) ?? null),
        ...(sigs.get(id) ?? { signature: 'unsigned' as const }),
      });
    }
    return out;
  }

  async one(id: string): Promise<Provenance> {
    return (await this.of([id])).get(id)!;
  }

  /** The commits this clone's reflog of the notes ref records as made here. */
  private localSet(): Set<string> {
    if (this.local) return this.local;
    const out = new Set<string>();
    let text = '';
    try {
      text = readFileSync(join(this.repo.paths.commonDir, 'logs', NOTES_REF), 'utf8');
    } catch {
      // no reflog (reftable, or none kept): nothing is proven made here
    }
    for (const line of text.split('\n')) if (line.length > 82 && MADE_HERE.test(line)) out.add(line.slice(41, 81));
    return (this.local = out);
  }

  /** For each of `ids`, the first remote whose fetched handoff history holds it. */
  private async remoteOrigins(ids: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (!ids.length) return out;
    if (!this.remotes) {
      this.remotes = (await this.repo.refNames('refs/notes/remotes/'))
        .map((ref) => ({ ref, m: TRACKING.exec(ref) }))
        .filter((x) => x.m)
        .map((x) => ({ name: x.m![1], ref: x.ref }));
    }
    for (const rem of this.remotes) {
      const left = ids.filter((id) => !out.has(id));
      if (!left.length) break;
      if (left.length <= ASK_EACH && !rem.all) {
        for (const id of left) {
          const r = await this.repo.runGit(['merge-base', '--is-ancestor', id, rem.ref], { readOnly: true });
          if (r.code === 0) out.set(id, rem.name);
        }
        continue;
      }
      if (!rem.all) {
        const r = await this.repo.runGit(['rev-list', rem.ref], { readOnly: true });
        rem.all = new Set(r.code === 0 ? r.stdout.toString('latin1').split('\n').filter(Boolean) : []);
      }
      for (const id of left) if (rem.all.has(id)) out.set(id, rem.name);
    }
    return out;
  }
}
