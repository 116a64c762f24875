/**
 * The handoff history on a remote: read its tip, fetch it into a tracking ref, push with a
 * compare-and-swap on the value we fetched. Ordinary git transport, so every remote git
 * can reach (ssh, https, a local path) works, with the user's own credentials.
 */
import { NOTES_REF, type Repo } from './repo.js';
import { firstLine } from './exec.js';
import { RemoteUnreachable, RemoteRefused, NoRemote, GitFailed } from '../errors.js';

/** Where `sync` keeps the last fetched remote history (never force-written by a user push). */
export function trackingRef(remote: string): string {
  return `refs/notes/remotes/${remote}/handoff`;
}

/** Messages are parsed, so git speaks English here whatever the user's locale. */
const C_LOCALE = { LC_ALL: 'C', LANGUAGE: 'C' };

/** The remote `sync` uses by default: the current branch's upstream remote, else origin. */
export async function defaultRemote(repo: Repo): Promise<string | null> {
  const branch = repo.headBranch();
  const upstream = branch ? await repo.configGet(`branch.${branch}.remote`) : undefined;
  const candidates = [upstream, 'origin'].filter((r): r is string => Boolean(r) && r !== '.');
  for (const r of candidates) if (await repo.configGet(`remote.${r}.url`)) return r;
  return null;
}

/** Checks that `name` is a configured remote (a name is needed for the tracking ref). */
export async function requireRemote(repo: Repo, name: string | undefined): Promise<string> {
  if (name !== undefined) {
    if (!/^[A-Za-z0-9._\/-]+$/.test(name) || name.includes('..') || !(await repo.configGet(`remote.${name}.url`))) {
      // A typo is likelier than a remote to add (issue 11): name the ones there are.
      const remotes = [...(await repo.config()).keys()].map((k) => /^remote\.(.+)\.url$/.exec(k)?.[1]).filter((r): r is string => Boolean(r));
      const known = [...new Set(remotes)];
      const next = known.length
        ? `the configured ${known.length === 1 ? 'remote is' : 'remotes are'} ${known.map((r) => `'${r}'`).join(', ')}`
        : `there is none; add one with 'git remote add ${/^[\w.-]+$/.test(name) ? name : '<name>'} <url>'`;
      throw new NoRemote(`'${name}' is not a configured remote; ${next}`, { remote: name });
    }
    return name;
  }
  const r = await defaultRemote(repo);
  if (!r) throw new NoRemote("no remote to sync with: the current branch has no upstream and there is no 'origin'; name one: git handoff sync <remote>");
  return r;
}

/** The remote's tip of refs/notes/handoff without fetching anything (null: it has none). */
export async function remoteTip(repo: Repo, remote: string): Promise<string | null> {
  const r = await repo.runGit(['ls-remote', '--refs', remote, NOTES_REF], { env: C_LOCALE, readOnly: true });
  if (r.code !== 0) throw new RemoteUnreachable(`cannot reach remote '${remote}': ${firstLine(r.stderr) || `git ls-remote exit ${r.code}`}`, { remote });
  const line = r.stdout.toString('utf8').split('\n').find((l) => l.endsWith(`\t${NOTES_REF}`));
  return line ? line.slice(0, 40) : null;
}

/**
 * Fetches the remote's history into its tracking ref and returns the tip (null when the
 * remote has none; a stale tracking ref is then removed). Our own ref is never touched.
 */
export async function fetchNotes(repo: Repo, remote: string): Promise<string | null> {
  const tracking = trackingRef(remote);
  const r = await repo.runGit(
    ['fetch', '--no-tags', '--no-write-fetch-head', '--no-recurse-submodules', '--quiet', remote, `+${NOTES_REF}:${tracking}`],
    { env: C_LOCALE },
  );
  if (r.code !== 0) {
    if (/couldn't find remote ref/i.test(r.stderr)) {
      if (await repo.resolveRef(tracking)) await repo.runGit(['update-ref', '-d', tracking]);
      return null;
    }
    throw new RemoteUnreachable(`cannot fetch from remote '${remote}': ${firstLine(r.stderr) || `git fetch exit ${r.code}`}`, { remote });
  }
  return repo.resolveRef(tracking);
}

export type PushResult = 'ok' | 'moved';

/**
 * Pushes `oid` to the remote's refs/notes/handoff only if the remote still holds
 * `expected` (null: holds none): `--force-with-lease` is git's compare-and-swap on a remote.
 * `force` allows a non-fast-forward (only `sync --force`, after `purge`). 'moved': the
 * remote changed since we fetched; anything else the remote refuses throws RemoteRefused.
 */
export async function pushNotes(repo: Repo, remote: string, oid: string, expected: string | null, opts: { force?: boolean } = {}): Promise<PushResult> {
  // A lease alone would let git replace any history it matches: without --force, only
  // what extends the remote's history is ever pushed.
  if (!opts.force && expected && expected !== oid && (await repo.runGit(['merge-base', '--is-ancestor', expected, oid], { readOnly: true })).code !== 0) {
    throw new GitFailed(`refusing to push ${oid.slice(0, 12)} to '${remote}': it does not extend the remote's handoff history ${expected.slice(0, 12)}`);
  }
  const spec = `${opts.force ? '+' : ''}${oid}:${NOTES_REF}`;
  const r = await repo.runGit(['push', '--porcelain', '--no-verify', `--force-with-lease=${NOTES_REF}:${expected ?? ''}`, remote, spec], { env: C_LOCALE });
  const line = r.stdout
    .toString('utf8')
    .split('\n')
    .find((l) => l.includes(`:${NOTES_REF}\t`));
  if (r.code === 0 && line && !line.startsWith('!')) {
    await repo.runGit(['update-ref', '-m', `handoff: pushed to ${remote}`, trackingRef(remote), oid]);
    return 'ok';
  }
  if (!line) throw new RemoteUnreachable(`cannot push to remote '${remote}': ${firstLine(r.stderr) || `git push exit ${r.code}`}`, { remote });
  const reason = /\(([^)]*)\)\s*$/.exec(line)?.[1] ?? line.split('\t')[2] ?? '';
  if (/stale info|fetch first|non-fast-forward|failed to lock|cannot lock|incorrect old value|already exists|failed to update ref/i.test(reason)) return 'moved';
  throw new RemoteRefused(`remote '${remote}' refused the handoff history: ${reason || firstLine(r.stderr)}`, { remote, reason });
}
