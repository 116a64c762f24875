/**
 * The handoff history on a remote: read its tip, fetch it into a tracking ref, push with a
 * compare-and-swap on the value we fetched. Ordinary git transport, so every remote git
 * can reach (ssh, https, a local path) works, with the user's own credentials. Every call
 * that talks to the remote runs under a `NetworkBudget`: a deadline for the whole
 * command and stall detection (git's progress output counts as a sign of life), so a remote
 * that accepts a connection and then stays silent cannot hang `sync` or the user's push.
 */
import { NOTES_REF, type Repo } from './repo.js';
import { firstLine, type GitResult } from './exec.js';
import { describeGitFsFailure } from './fs-failure.js';
import { removeGitTemporaries } from './git-temporaries.js';
import { RemoteUnreachable, RemoteRefused, NoRemote, InvariantBroken, InvalidInput } from '../errors.js';
import { nearestName } from '../core/nearest-name.js';

/** Where `sync` keeps the last fetched remote history (never force-written by a user push). */
export function trackingRef(remote: string): string {
  return `refs/notes/remotes/${remote}/handoff`;
}

/** Messages are parsed, so git speaks English here whatever the user's locale. */
const C_LOCALE = { LC_ALL: 'C', LANGUAGE: 'C' };

/**
 * Whether a remote name from the command line or config may reach git: never one git would
 * take for an option (`-oProxyCommand=...` in `branch.<name>.remote`), a path or a URL.
 */
export function isSafeRemoteName(name: string): boolean {
  return /^[A-Za-z0-9._][A-Za-z0-9._/-]*$/.test(name) && !name.includes('..');
}

/** The remote `sync` uses by default: the current branch's upstream remote, else origin. */
export async function defaultRemote(repo: Repo): Promise<string | null> {
  const branch = repo.headBranch();
  const upstream = branch ? await repo.configGet(`branch.${branch}.remote`) : undefined;
  // a name git would take for an option or a path is passed over (show and the hooks never fail on it; sync refuses it)
  const candidates = [upstream, 'origin'].filter((r): r is string => Boolean(r) && r !== '.' && isSafeRemoteName(r!));
  for (const r of candidates) if (await repo.configGet(`remote.${r}.url`)) return r;
  return null;
}

/** Checks that `name` is a configured remote (a name is needed for the tracking ref). */
export async function requireRemote(repo: Repo, name: string | undefined): Promise<string> {
  if (name !== undefined) {
    if (!isSafeRemoteName(name) || !(await repo.configGet(`remote.${name}.url`))) {
      // A typo is likelier than a remote to add: name the ones there are.
      const remotes = [...(await repo.config()).keys()].map((k) => /^remote\.(.+)\.url$/.exec(k)?.[1]).filter((r): r is string => Boolean(r));
      const known = [...new Set(remotes)];
      const near = nearestName(name, known);
      const next = known.length ? `the configured ${known.length === 1 ? 'remote is' : 'remotes are'} ${known.map((r) => `'${r}'`).join(', ')}` : null;
      if (!next) {
        const add = `git remote add ${/^[\w.-]+$/.test(name) ? name : '<name>'} <url>`;
        throw new NoRemote(`'${name}' is not a configured remote (this repository has none); add one with '${add}'`, { remote: name });
      }
      throw new NoRemote(`'${name}' is not a configured remote${near ? ` (did you mean '${near}'?)` : ''}; ${next}`, { remote: name });
    }
    return name;
  }
  const branch = repo.headBranch();
  const upstream = branch ? await repo.configGet(`branch.${branch}.remote`) : undefined;
  if (upstream && upstream !== '.' && !isSafeRemoteName(upstream)) {
    throw new InvalidInput(
      `refusing branch.${branch}.remote '${upstream}': not a remote name (git would read it as an option or a path); name the remote: git handoff sync <remote>`,
      { key: `branch.${branch}.remote` },
    );
  }
  const r = await defaultRemote(repo);
  if (!r) throw new NoRemote("no remote to sync with: the current branch has no upstream and there is no 'origin'; name one: git handoff sync <remote>");
  return r;
}

/**
 * How long the network steps of one command may take: stopped at `deadline` (epoch ms), or
 * when git has printed nothing, progress included, for `stallMs`. `setting` is the config
 * key that sets the deadline, named in the message when it runs out.
 */
export interface NetworkBudget {
  deadline: number;
  stallMs: number;
  setting: string;
  seconds: number;
}

export function networkBudget(seconds: number, stallSeconds: number, setting: string, now = Date.now()): NetworkBudget {
  return { deadline: now + seconds * 1000, stallMs: Math.min(stallSeconds, seconds) * 1000, setting, seconds };
}

/** What is left of a budget, in ms (0 when spent). */
export function remainingMs(budget: NetworkBudget | undefined, now = Date.now()): number {
  return budget ? Math.max(0, budget.deadline - now) : Infinity;
}

/** The message of a network step that ran out of its budget. */
export function outOfTime(remote: string, what: string, budget: NetworkBudget): RemoteUnreachable {
  return new RemoteUnreachable(
    `remote '${remote}' did not finish the ${what} within ${budget.seconds}s (${budget.setting}); nothing was lost, the local history is as it was`,
    { remote, stopped: 'deadline' },
  );
}

/** Progress lines (kept for stall detection) are not the reason a step failed. */
const PROGRESS =
  /^(remote: *)?(Enumerating|Counting|Compressing|Writing|Receiving|Resolving|Total|Delta compression|Unpacking|Finding sources|Receiving objects|Resolving deltas)\b|^remote: *$|^To |^From |^Done$/;

/** The line of git's stderr that says why it failed. */
export function reasonOf(stderr: string): string {
  const lines = stderr
    .split(/[\r\n]+/)
    .map((l) => l.trim())
    .filter((l) => l && !PROGRESS.test(l));
  const i = [/^(fatal|error):/, /^remote: (fatal|error):/].map((re) => lines.findIndex((l) => re.test(l))).find((n) => n >= 0);
  if (i === undefined) return firstLine(lines.join('\n'));
  // git continues a message that ends in ':' on the next line ("unable to connect to host:" / "...errno=Connection refused")
  return lines[i].endsWith(':') && lines[i + 1] ? `${lines[i]} ${lines[i + 1]}` : lines[i];
}

async function networkGit(repo: Repo, remote: string, what: string, args: string[], budget: NetworkBudget | undefined): Promise<GitResult> {
  // every caller names the remote after `--` too; this is the one gate a name passes
  if (!isSafeRemoteName(remote)) throw new InvalidInput(`refusing remote '${remote}': not a remote name`, { remote });
  if (budget && remainingMs(budget) <= 0) throw outOfTime(remote, what, budget);
  const env: NodeJS.ProcessEnv = { ...C_LOCALE };
  if (budget) {
    // curl's own stall detection, so an HTTP remote helper does not outlive its git.
    env.GIT_HTTP_LOW_SPEED_LIMIT = '1';
    env.GIT_HTTP_LOW_SPEED_TIME = String(Math.max(1, Math.ceil(budget.stallMs / 1000)));
  }
  const started = Date.now();
  const r = await repo.runGit(args, { env, ...(budget ? { deadlineMs: remainingMs(budget), stallMs: budget.stallMs } : {}) });
  // git leaves its temporary pack or objects behind when a write fails (a full disk) or it is stopped.
  if (r.code !== 0 && what !== 'read of its handoff tip') removeGitTemporaries(repo.objectsDir, started);
  if (r.stopped === 'deadline') throw outOfTime(remote, what, budget!);
  if (r.stopped === 'stall') {
    throw new RemoteUnreachable(
      `remote '${remote}' stopped answering: nothing came for ${Math.round(budget!.stallMs / 1000)}s during the ${what}; nothing was lost, the local history is as it was`,
      { remote, stopped: 'stall' },
    );
  }
  return r;
}

/** Why a network step failed: the local file system refusing is named as such. */
function failure(repo: Repo, r: GitResult, fallback: string): string {
  return describeGitFsFailure(r.stderr, repo.paths.commonDir) ?? (reasonOf(r.stderr) || fallback);
}

/** The remote's tip of refs/notes/handoff without fetching anything (null: it has none). */
export async function remoteTip(repo: Repo, remote: string, budget?: NetworkBudget): Promise<string | null> {
  const r = await networkGit(repo, remote, 'read of its handoff tip', ['ls-remote', '--refs', '--', remote, NOTES_REF], budget);
  if (r.code !== 0) throw new RemoteUnreachable(`cannot reach remote '${remote}': ${failure(repo, r, `git ls-remote exit ${r.code}`)}`, { remote });
  const line = r.stdout
    .toString('utf8')
    .split('\n')
    .find((l) => l.endsWith(`\t${NOTES_REF}`));
  return line ? line.slice(0, 40) : null;
}

/** The tracking ref was updated by another sync of this clone meanwhile: fetch again. */
export const TRACKING_BUSY = 'busy' as const;

/**
 * Fetches the remote's history into its tracking ref and returns the tip (null when the
 * remote has none; a stale tracking ref is then removed). Our own ref is never touched.
 * 'busy': another fetch in this clone moved the tracking ref at the same moment.
 */
export async function fetchNotes(repo: Repo, remote: string, budget?: NetworkBudget): Promise<string | null | typeof TRACKING_BUSY> {
  const tracking = trackingRef(remote);
  const r = await networkGit(
    repo,
    remote,
    'fetch',
    ['fetch', '--no-tags', '--no-write-fetch-head', '--no-recurse-submodules', '--progress', '--', remote, `+${NOTES_REF}:${tracking}`],
    budget,
  );
  if (r.code !== 0) {
    if (/couldn't find remote ref/i.test(r.stderr)) {
      if (await repo.resolveRef(tracking)) await repo.runGit(['update-ref', '-d', tracking]);
      return null;
    }
    if (/cannot lock ref '[^']*remotes\/[^']*handoff'|is at [0-9a-f]+ but expected/i.test(r.stderr) && !describeGitFsFailure(r.stderr, null))
      return TRACKING_BUSY;
    throw new RemoteUnreachable(`cannot fetch from remote '${remote}': ${failure(repo, r, `git fetch exit ${r.code}`)}`, { remote });
  }
  return repo.resolveRef(tracking);
}

/** Whether `oid` descends from `expected`; a merge made on it (the usual case) is seen without a git process. */
async function extends_(repo: Repo, oid: string, expected: string): Promise<boolean> {
  const obj = await repo.objects.read(oid);
  if (obj?.type === 'commit' && new RegExp(`^parent ${expected}$`, 'm').test(obj.data.subarray(0, 4096).toString('latin1').split('\n\n')[0])) return true;
  return (await repo.runGit(['merge-base', '--is-ancestor', expected, oid], { readOnly: true })).code === 0;
}

/** 'moved': the remote changed since we fetched; `lock`: its ref is locked (by the path named, when git said). */
export type PushResult = 'ok' | 'moved' | { lock: string | null };

/**
 * Pushes `oid` to the remote's refs/notes/handoff only if the remote still holds
 * `expected` (null: holds none): `--force-with-lease` is git's compare-and-swap on a remote.
 * `force` allows a non-fast-forward (only `sync --force`, after `purge`). Anything else the
 * remote refuses throws RemoteRefused.
 */
export async function pushNotes(
  repo: Repo,
  remote: string,
  oid: string,
  expected: string | null,
  opts: { force?: boolean; budget?: NetworkBudget } = {},
): Promise<PushResult> {
  // A lease alone would let git replace any history it matches: without --force, only
  // what extends the remote's history is ever pushed.
  if (!opts.force && expected && expected !== oid && !(await extends_(repo, oid, expected))) {
    throw new InvariantBroken(`refusing to push ${oid.slice(0, 12)} to '${remote}': it does not extend the remote's handoff history ${expected.slice(0, 12)}`);
  }
  const spec = `${opts.force ? '+' : ''}${oid}:${NOTES_REF}`;
  const r = await networkGit(
    repo,
    remote,
    'push',
    ['push', '--porcelain', '--no-verify', '--progress', `--force-with-lease=${NOTES_REF}:${expected ?? ''}`, '--', remote, spec],
    opts.budget,
  );
  const line = r.stdout
    .toString('utf8')
    .split('\n')
    .find((l) => l.includes(`:${NOTES_REF}\t`));
  if (r.code === 0 && line && !line.startsWith('!')) {
    await repo.runGit(['update-ref', '-m', `handoff: pushed to ${remote}`, trackingRef(remote), oid]);
    return 'ok';
  }
  if (!line) throw new RemoteUnreachable(`cannot push to remote '${remote}': ${failure(repo, r, `git push exit ${r.code}`)}`, { remote });
  const reason = /\(([^)]*)\)\s*$/.exec(line)?.[1] ?? line.split('\t')[2] ?? '';
  // A ref lock on the remote: git names the lock file on stderr ("Unable to create '<path>.lock': File exists").
  const lock = /Unable to create '([^']*\.lock)': File exists/i.exec(r.stderr);
  if (lock || (/failed to lock|cannot lock/i.test(reason) && !/stale info/.test(reason))) return { lock: lock ? lock[1].replace(/\/\.\//g, '/') : null };
  if (/stale info|fetch first|non-fast-forward|failed to lock|cannot lock|incorrect old value|already exists|failed to update ref/i.test(reason))
    return 'moved';
  throw new RemoteRefused(`remote '${remote}' refused the handoff history: ${reason || reasonOf(r.stderr)}`, { remote, reason });
}
