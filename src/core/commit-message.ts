/**
 * The one reader of commit messages: the subject line, the body and the trailer block, by
 * git's rules (docs/format.md names the trailers a version commit carries). Pure.
 *
 * The rule, shared by the notes store and the substantive-commit rule: paragraphs are
 * separated by lines that are empty or white space; the first is the subject; the last of
 * the others is the trailer block when every line in it is a `Key: value` line (a key of
 * letters, digits and '-', starting with a letter or digit; a value after white space) or a
 * continuation line (starting with white space), and the first is a `Key: value` line.
 */

import { InvariantBroken } from '../errors.js';

const TRAILER = /^([A-Za-z0-9][A-Za-z0-9-]*):\s+(\S.*)$/;
const KEY = /^[A-Za-z0-9][A-Za-z0-9-]*$/;

/** Whether `v` reads back as itself in a trailer: one line, no control characters, no white space at its ends. */
export function isTrailerValue(v: string): boolean {
  return v !== '' && !/[\x00-\x1f\x7f]/.test(v) && v.trim() === v;
}

/**
 * A branch name from a note (someone else's words) fit for `Handoff-Branch`, else null: what
 * git allows in a branch name, so a line break in a note's `branch:` can never add trailers
 * (`Handoff-Kind: receipt`) to a commit we make.
 */
export function branchForTrailer(branch: string | null | undefined): string | null {
  if (!branch || !isTrailerValue(branch) || branch.startsWith('-')) return null;
  return /[\s~^:?*[\\]|\.\.|@\{|^\/|\/$|\.lock$|^\.|\/\./.test(branch) ? null : branch;
}

/**
 * The message of a commit we make: `subject` on one line (line breaks and controls become
 * spaces: the subject is for people), then the trailer block. A key or value that would not
 * read back as itself is refused: the trailers are the only part of the message with meaning.
 */
export function renderCommitMessage(subject: string, trailers: Record<string, string>): string {
  const lines = Object.entries(trailers).map(([k, v]) => {
    if (!KEY.test(k) || !isTrailerValue(v))
      throw new InvariantBroken(`refusing to write trailer ${JSON.stringify(k)}: ${JSON.stringify(v)} is not one plain line`);
    return `${k}: ${v}`;
  });
  const line = subject.replace(/[\x00-\x1f\x7f]+/g, ' ').trim();
  return `${line}\n\n${lines.join('\n')}\n`;
}
const CONTINUATION = /^\s+\S/;

function paragraphs(message: string): string[] {
  return message.replace(/\r\n/g, '\n').split(/\n[ \t]*\n/);
}

/** The subject: the first paragraph, its lines joined by one space (as git's `%s`). */
export function subjectLine(message: string): string {
  return paragraphs(message)[0]
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

/** The paragraphs after the subject, the trailing empty ones dropped. */
function bodyParagraphs(message: string): string[] {
  const rest = paragraphs(message).slice(1);
  while (rest.length && rest[rest.length - 1].trim() === '') rest.pop();
  return rest;
}

/** The lines of the trailer block (blank lines dropped), or null when the message has none. */
function trailerLines(rest: string[]): string[] | null {
  const last = rest[rest.length - 1];
  if (last === undefined) return null;
  const lines = last.split('\n').filter((l) => l.trim() !== '');
  return lines.length && TRAILER.test(lines[0]) && lines.every((l) => TRAILER.test(l) || CONTINUATION.test(l)) ? lines : null;
}

/**
 * The trailers of the message's trailer block: `Key` -> value, the last of a repeated key
 * winning, continuation lines joined to their value with one space. Empty without a block.
 */
export function parseTrailers(message: string): Record<string, string> {
  const out: Record<string, string> = {};
  let key: string | null = null;
  for (const line of trailerLines(bodyParagraphs(message)) ?? []) {
    const m = TRAILER.exec(line);
    if (m) out[(key = m[1])] = m[2].trim();
    else if (key !== null) out[key] = `${out[key]} ${line.trim()}`;
  }
  return out;
}

/** The message body without its subject paragraph and trailer block, trailing white space trimmed. */
export function bodyOf(message: string): string {
  const rest = bodyParagraphs(message);
  if (trailerLines(rest)) rest.pop();
  return rest.join('\n\n').replace(/\s+$/, '');
}
