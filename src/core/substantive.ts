/**
 * The substantive-commit rule and "due" (DESIGN.md "Git hooks"). Pure.
 */

/**
 * DESIGN.md: excluded subjects, case-insensitive: a commit of one of these types (with a
 * scope or `!` or not), or one that starts with the phrase. The one definition: the
 * post-commit shim's test (githooks/post-commit, written by scripts/build.mjs through
 * ./excluded-subject-shell.ts) is generated from these two.
 */
export const EXCLUDED_TYPES: readonly string[] = ['meta', 'docs', 'style', 'chore'];
export const EXCLUDED_PHRASE = 'fix typo';
export const EXCLUDED_SUBJECT = new RegExp(`^(${EXCLUDED_TYPES.join('|')})(\\([^)]*\\))?!?:`, 'i');
const EXCLUDED_PHRASE_START = new RegExp(`^${EXCLUDED_PHRASE}`, 'i');
/** DESIGN.md: "the body, trailers removed and trailing whitespace trimmed, is longer than 200 characters". */
export const BODY_THRESHOLD = 200;
/** DESIGN.md: "changes more than 3 files". */
export const FILES_THRESHOLD = 3;

export function isExcludedSubject(subject: string): boolean {
  return EXCLUDED_SUBJECT.test(subject) || EXCLUDED_PHRASE_START.test(subject);
}

const TRAILER_LINE = /^[A-Za-z0-9][A-Za-z0-9-]*:\s+\S/;

/** The message body without its subject paragraph and trailer block, trailing whitespace trimmed. */
export function bodyOf(message: string): string {
  const text = message.replace(/\r\n/g, '\n');
  const paragraphs = text.split(/\n[ \t]*\n/);
  paragraphs.shift();
  while (paragraphs.length && paragraphs[paragraphs.length - 1].trim() === '') paragraphs.pop();
  const last = paragraphs[paragraphs.length - 1];
  if (last !== undefined) {
    const lines = last.split('\n').filter((l) => l.trim() !== '');
    // git's trailer block: the last paragraph, every line a `Key: value` or a continuation.
    if (lines.length && TRAILER_LINE.test(lines[0]) && lines.every((l) => TRAILER_LINE.test(l) || /^\s+\S/.test(l))) paragraphs.pop();
  }
  return paragraphs.join('\n\n').replace(/\s+$/, '');
}

export function subjectLine(message: string): string {
  return message.replace(/\r\n/g, '\n').split(/\n[ \t]*\n/)[0].replace(/\s*\n\s*/g, ' ').trim();
}

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
