/**
 * `policy`: the effective policy and its hash; `policy approve` records that hash in the
 * notes (`policy/approved`). The file is read, never written. An unapproved file is not
 * trusted: commands that write refuse, `seed` falls back to the defaults.
 */
import type { Repo } from '../git/repo.js';
import { ItemStore } from '../git/item-store.js';
import { agentActive } from './actor.js';
import { resolveIdentities } from '../git/identity.js';
import { defaultPolicy, normalizePolicy, policyHash, POLICY_PATH, type Policy } from '../core/policy.js';
import { decodeText, DEFAULT_MAX_BYTES } from '../core/bytes.js';
import { parseDocument } from '../core/parse.js';
import { InvalidPolicy, NoPolicy, PersonRequired, PolicyNotApproved } from '../errors.js';
import { readWorkTreeFile } from '../state/bounded-file.js';

export interface LoadedPolicy {
  path: string;
  exists: boolean;
  /** the file's `git hash-object` id; null without a file */
  hash: string | null;
  approved: boolean;
  /** a file that is not approved is not trusted; no file is trusted (built-in defaults) */
  trusted: boolean;
  /** what the file says over the defaults (the defaults when there is no file) */
  declared: Policy;
  /** what commands use: `declared` when trusted, else the defaults */
  effective: Policy;
}

/** `policy`: the policy file as it stands here, its hash, and whether that hash is approved. */
export function currentPolicy(repo: Repo): Promise<LoadedPolicy> {
  return loadPolicy(repo, new ItemStore(repo));
}

/** Reads and checks the policy file; one that does not parse is refused (exit 1). */
export async function loadPolicy(repo: Repo, items: ItemStore): Promise<LoadedPolicy> {
  const root = repo.workTree;
  let bytes: Buffer | null = null;
  if (root) {
    // a regular file inside the work tree, of a bounded size; a link out or /dev/zero is refused naming it
    bytes = readWorkTreeFile(root, POLICY_PATH);
  }
  if (!bytes) {
    const p = defaultPolicy();
    return { path: POLICY_PATH, exists: false, hash: null, approved: false, trusted: true, declared: p, effective: p };
  }
  const decoded = decodeText(bytes, DEFAULT_MAX_BYTES);
  if ('problem' in decoded) throw new InvalidPolicy(`${POLICY_PATH}: ${decoded.problem.message.replace(/^input/, 'the file')}`);
  let raw: unknown;
  try {
    raw = await parseDocument(decoded.text);
  } catch (e) {
    throw new InvalidPolicy(`${POLICY_PATH}: ${(e as Error).message}`);
  }
  const n = normalizePolicy(raw);
  if ('problem' in n) throw new InvalidPolicy(`${POLICY_PATH}: ${n.problem}`);
  const hash = policyHash(bytes);
  const approved = (await items.approvedPolicies()).includes(hash);
  return { path: POLICY_PATH, exists: true, hash, approved, trusted: approved, declared: n.policy, effective: approved ? n.policy : defaultPolicy() };
}

/** Commands that write run only under a trusted policy. */
export function requireTrusted(p: LoadedPolicy): void {
  if (!p.trusted) {
    throw new PolicyNotApproved(`${p.path} (hash ${p.hash!.slice(0, 12)}) is not approved; review it, then run 'git handoff policy approve'`, { hash: p.hash });
  }
}

/** The one line `seed` and `status` print when they fall back to the defaults. */
export function untrustedNotice(p: LoadedPolicy): string | null {
  return p.trusted ? null : `${p.path} (hash ${p.hash!.slice(0, 12)}) is not approved; using the built-in defaults (run 'git handoff policy approve')`;
}

export interface ApproveResult {
  hash: string;
  unchanged: boolean;
  dryRun: boolean;
  commit: string | null;
}

/** Records the current file's hash as approved. A person's act: refused while an agent is acting. */
export async function approvePolicy(repo: Repo, req: { dryRun: boolean }): Promise<ApproveResult> {
  const agent = agentActive(repo);
  const items = new ItemStore(repo);
  const p = await loadPolicy(repo, items);
  if (!p.exists) throw new NoPolicy(`there is no ${POLICY_PATH} to approve; the built-in defaults need no approval`);
  if (agent) throw new PersonRequired('only a person approves a policy (an agent session is active or HANDOFF_AGENT is set)');
  if (p.approved) return { hash: p.hash!, unchanged: true, dryRun: req.dryRun, commit: null };
  if (req.dryRun) return { hash: p.hash!, unchanged: false, dryRun: true, commit: null };
  const ids = await resolveIdentities(repo);
  const commit = await items.apply({
    kind: 'policy',
    subject: `handoff policy: approve ${POLICY_PATH} ${p.hash!.slice(0, 12)}`,
    trailers: { 'Handoff-Policy': p.hash!, 'Handoff-Approved-By': `${ids.committer.name} <${ids.committer.email}>` },
    approvePolicy: p.hash!,
  });
  return { hash: p.hash!, unchanged: false, dryRun: false, commit };
}
