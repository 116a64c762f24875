import type { Repo } from './repo.js';
import type { Signature } from './objects.js';
import { git } from './exec.js';
import { InvalidInput } from '../errors.js';

/** Used where no git identity is configured (CI boxes): never a failure (docs/format.md, "Commits"). */
export const FALLBACK_NAME = 'git-handoff';
export const FALLBACK_EMAIL = 'git-handoff@localhost';

function localTz(date: Date): string {
  const off = -date.getTimezoneOffset();
  const sign = off < 0 ? '-' : '+';
  const abs = Math.abs(off);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
}

export interface Identities {
  author: Signature;
  committer: Signature;
}

/**
 * The author and committer of our commits: the user's git identity, else the fallback;
 * dates honour GIT_AUTHOR_DATE / GIT_COMMITTER_DATE exactly as git parses them.
 */
export async function resolveIdentities(repo: Repo, now = new Date()): Promise<Identities> {
  const env = process.env;
  const cfgName = await repo.configGet('user.name');
  const cfgEmail = await repo.configGet('user.email');
  const make = async (who: 'AUTHOR' | 'COMMITTER'): Promise<Signature> => {
    const name = env[`GIT_${who}_NAME`] || cfgName || FALLBACK_NAME;
    const email = env[`GIT_${who}_EMAIL`] || cfgEmail || env.EMAIL || FALLBACK_EMAIL;
    const dateVar = env[`GIT_${who}_DATE`];
    if (!dateVar) return { name, email, timestamp: Math.floor(now.getTime() / 1000), tz: localTz(now) };
    const out = await git(['var', `GIT_${who}_IDENT`], {
      cwd: repo.workTree ?? repo.gitDir,
      env: { GIT_DIR: repo.gitDir, [`GIT_${who}_NAME`]: name, [`GIT_${who}_EMAIL`]: email },
    }).catch(() => {
      throw new InvalidInput(`GIT_${who}_DATE is not a date git understands: ${dateVar}`);
    });
    const m = / (\d+) ([+-]\d{4})\s*$/.exec(out);
    if (!m) throw new InvalidInput(`GIT_${who}_DATE is not a date git understands: ${dateVar}`);
    return { name, email, timestamp: Number(m[1]), tz: m[2] };
  };
  const [author, committer] = await Promise.all([make('AUTHOR'), make('COMMITTER')]);
  return { author, committer };
}

/** ISO-8601 UTC, second precision: the `date` field of a version. */
export function isoUtc(timestamp: number): string {
  return new Date(timestamp * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
