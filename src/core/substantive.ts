/**
 * The substantive-commit rule and "due" (docs/hooks.md). Pure.
 */
import { bodyOf, subjectLine } from './commit-message.js';

/**
 * docs/hooks.md: excluded subjects, case-insensitive: a commit of one of these types (with a
 * scope or `!` or not), or one that starts with the phrase. The one definition: the
 * post-commit shim's test (githooks/post-commit, written by scripts/build.mjs through
 * ./excluded-subject-shell.ts) is generated from these two.
 */
export const EXCLUDED_TYPES: readonly string[] = ['meta', 'docs', 'style', 'chore'];
export const EXCLUDED_PHRASE = 'fix typo';
export const EXCLUDED_SUBJECT = new RegExp(`^(${EXCLUDED_TYPES.join('|')})(\\([^)]*\\))?!?:`, 'i');
const EXCLUDED_PHRASE_START = new RegExp(`^${EXCLUDED_PHRASE}`, 'i');
/** docs/hooks.md: "the body, trailers removed and trailing whitespace trimmed, is longer than 200 characters". */
export const BODY_THRESHOLD = 200;
/** docs/hooks.md: "changes more than 3 files". */
export const FILES_THRESHOLD = 3;

export function isExcludedSubject(subject: string): boolean {
  return EXCLUDED_SUBJECT.test(subject) || EXCLUDED_PHRASE_START.test(subject);
}

export { bodyOf, subjectLine } from './commit-message.js';

export interface CommitFacts {
  message: string;
  /** files changed; counting may stop once it passes the threshold */
  filesChanged: number;
}

export type SubstantiveRule = 'excluded' | 'first-commit' | 'body-length' | 'files-changed' | 'small';

export interface Verdict {
  substantive: boolean;
  rule: SubstantiveRule;
}

/**
 * `firstSinceVersion`: no commit with a non-excluded subject was made between the latest
 * version (or the start of the agent session) and this one.
 */
export function isSubstantive(commit: CommitFacts, since: { firstSinceVersion: boolean }): Verdict {
  if (isExcludedSubject(subjectLine(commit.message))) return { substantive: false, rule: 'excluded' };
  if (since.firstSinceVersion) return { substantive: true, rule: 'first-commit' };
  if ([...bodyOf(commit.message)].length > BODY_THRESHOLD) return { substantive: true, rule: 'body-length' };
  if (commit.filesChanged > FILES_THRESHOLD) return { substantive: true, rule: 'files-changed' };
  return { substantive: false, rule: 'small' };
}

export interface DueReason {
  rule: 'commit-since-handoff';
  commit: string;
}

/**
 * Due: since the latest version's head, a commit with a non-excluded subject was made on
 * the current branch. `commits` are HEAD's first-parent history back to (not including)
 * that head, newest first.
 */
export function dueFrom(commits: { id: string; subject: string }[]): DueReason | null {
  const hit = commits.find((c) => !isExcludedSubject(c.subject));
  return hit ? { rule: 'commit-since-handoff', commit: hit.id } : null;
}
