/**
 * Dates as git reads them: `--since yesterday`, `2.weeks.ago`, `last monday`, an ISO date,
 * whatever `git log --since` takes, parsed by git itself rather than by a second parser.
 * `git config --type=expiry-date` runs the same approxidate as `--since`, and unlike
 * `rev-parse --since` it says when it understood nothing (instead of answering "now").
 */
import type { Repo } from './repo.js';

/** The time `text` names, in epoch seconds, as git reads it; null when git cannot read it as a date. */
export async function gitDate(repo: Repo, text: string): Promise<number | null> {
  const key = 'githandoff.since'; // a throwaway name for -c, not a setting of ours
  const r = await repo.runGit(['-c', `${key}=${text}`, 'config', '--type=expiry-date', key], { readOnly: true });
  const out = r.stdout.toString('utf8').trim();
  if (r.code !== 0 || !/^\d+$/.test(out)) return null;
  const s = Number(out);
  // "now" reads as the end of time for an expiry date: for --since it is now
  return s > Number.MAX_SAFE_INTEGER / 1000 ? Math.floor(Date.now() / 1000) : s;
}
