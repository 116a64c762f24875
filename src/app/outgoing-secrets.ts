/**
 * The scan before a push: every version the remote lacks is scanned again, so a
 * note written by another tool or by hand (`git notes --ref handoff add`), or before the
 * rules knew its format, is not spread to every clone. A hit refuses the push, names the
 * version and field, and gives the way out: `purge` (or the allow list for a false positive).
 */
import type { Repo } from '../git/repo.js';
import type { HandoffStore } from '../git/handoff-store.js';
import { uniqueCommits } from '../git/notes-history.js';
import { compileAllow, scanFields, scanText, type FieldSecret } from '../core/secrets.js';
import { describeSecrets, inputLines } from '../core/secret-report.js';
import { SecretDetected } from '../errors.js';
import { canStream, streamVersions, type StreamedVersion } from '../git/version-stream.js';

async function* fromStore(repo: Repo, store: HandoffStore, tip: string, remoteTip: string | null): AsyncGenerator<StreamedVersion> {
  for (const id of await uniqueCommits(repo, tip, [remoteTip])) {
    const v = await store.versionOf(id, await store.readCommit(id));
    if (v) yield await store.read(v);
  }
}

/** Throws SecretDetected when a version in `tip` and not in `remoteTip` carries a secret. */
export async function refuseOutgoingSecrets(repo: Repo, store: HandoffStore, tip: string | null, remoteTip: string | null): Promise<void> {
  if (!tip || tip === remoteTip) return;
  const allow = compileAllow(await repo.configAll('handoff.secrets.allow'));
  // Every version an empty remote lacks is every version: read them in bulk (one git log,
  // one cat-file --batch), in rev-list's order, as the store would read them.
  const versions = canStream(repo) ? streamVersions(repo, tip, undefined, remoteTip) : fromStore(repo, store, tip, remoteTip);
  for await (const r of versions) {
    if (!('valid' in r) || r.text === null) continue;
    const id = r.id;
    // Every field: tool-filled ones were masked when we wrote them, a hand-written note had no such care.
    const hits: FieldSecret[] = r.valid ? scanFields(r.handoff, allow) : scanText(r.text, allow).map((h) => ({ ...h, field: '(note)' }));
    if (!hits.length) continue;
    const short = id.slice(0, 12);
    const d = describeSecrets(
      hits,
      inputLines(r.text, hits),
      'note',
      `version ${short} (note of ${r.target.slice(0, 7)}) was not pushed; remove it with: git handoff purge ${short}`,
    );
    throw new SecretDetected(d.message, { ...d.data, version: id, target: r.target });
  }
}
