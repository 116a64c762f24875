/**
 * Signed notes commits, by git's own machinery. With `handoff.sign` true our commits are
 * made by `git commit-tree -S`, so the user's signing setup applies as for their code
 * (`gpg.format` openpgp, ssh or x509, `user.signingKey`, `gpg.program`, `gpg.ssh.program`).
 * Readers ask git (`%G?`, `%GS`), which verifies with the user's keyring or
 * `gpg.ssh.allowedSignersFile`: "verified" only for a good signature by a key the user
 * trusts (git's `G`); no signature is "unsigned"; anything else ("B" a bad signature, "U" a
 * good one by a key the user does not trust, "E" one that cannot be checked, expired or
 * revoked keys) is "bad": it proves nothing about who wrote the version.
 */
import type { Repo } from './repo.js';
import type { Commit } from './objects.js';
import { SigningFailed } from '../errors.js';
import { isObjectId } from '../core/object-id.js';
import type { SignatureStatus } from '../core/provenance.js';

/** Whether our notes commits are to be signed (`handoff.sign`). */
export function signingWanted(repo: Repo): Promise<boolean> {
  return repo.configBool('handoff.sign', false);
}

const date = (s: { timestamp: number; tz: string }) => `@${s.timestamp} ${s.tz}`;

/** Writes `c` as a commit signed with the user's git signing setup; returns its id. */
export async function writeSignedCommit(repo: Repo, c: Commit): Promise<string> {
  const r = await repo.runGit(['commit-tree', '-S', c.tree, ...c.parents.flatMap((p) => ['-p', p])], {
    input: c.message,
    env: {
      GIT_AUTHOR_NAME: c.author.name,
      GIT_AUTHOR_EMAIL: c.author.email,
      GIT_AUTHOR_DATE: date(c.author),
      GIT_COMMITTER_NAME: c.committer.name,
      GIT_COMMITTER_EMAIL: c.committer.email,
      GIT_COMMITTER_DATE: date(c.committer),
    },
  });
  const id = r.stdout.toString().trim();
  if (r.code !== 0 || !isObjectId(id)) {
    const why = r.stderr.toString().trim().split('\n').pop() || `exit ${r.code}`;
    throw new SigningFailed(
      `could not sign the notes commit (handoff.sign is true): ${why}; check gpg.format and user.signingKey, or 'git config handoff.sign false'`,
    );
  }
  return id;
}

/** Whether the raw commit carries a signature header (`gpgsig`, `gpgsig-sha256`). */
export function hasSignature(raw: Buffer): boolean {
  const end = raw.indexOf('\n\n');
  const header = (end < 0 ? raw : raw.subarray(0, end)).toString('latin1');
  return /(^|\n)gpgsig(-sha256)? /.test(header);
}

/**
 * The signature of each of `ids` as git verifies it (one `git log` for all), for commits
 * known to carry one; `signer` is git's `%GS` (the principal of an allowed-signers line,
 * the uid of a key) for a verified one.
 */
export async function verifySignatures(repo: Repo, ids: string[]): Promise<Map<string, { signature: SignatureStatus; signer?: string }>> {
  const out = new Map<string, { signature: SignatureStatus; signer?: string }>();
  if (!ids.length) return out;
  const r = await repo.runGit(['log', '--no-walk=unsorted', '--stdin', '--format=%H%x09%G?%x09%GS'], {
    input: ids.map((id) => `${id}\n`).join(''),
    readOnly: true,
  });
  for (const line of r.code === 0 ? r.stdout.toString('utf8').split('\n') : []) {
    const [id, code, signer] = line.split('\t');
    if (!isObjectId(id)) continue;
    out.set(id, code === 'G' ? { signature: 'verified', ...(signer ? { signer } : {}) } : { signature: code === 'N' ? 'unsigned' : 'bad' });
  }
  for (const id of ids) if (!out.has(id)) out.set(id, { signature: 'bad' });
  return out;
}
