/**
 * The one place a note's bytes become a handoff (docs/format.md): decoded, decrypted when
 * the user's key is a recipient (docs/privacy.md), parsed and checked. `HandoffStore.read`
 * and the bulk reader (version-stream.ts) both read notes through it.
 */
import { parseTrailers, type Commit } from './objects.js';
import { binaryProblem, decodeTextUnsearched, hasBinary } from '../core/bytes.js';
import { fastDocument, parseDocument } from '../core/parse.js';
import { checkStored, type Handoff } from '../core/schema.js';
import { isArmoredAge, recipientCount, type Visibility } from '../core/age.js';
import type { NoteKeys } from './note-keys.js';

export interface NoteReading {
  /** undefined only for a native version whose note could not be read */
  branch: string | null | undefined;
  valid: boolean;
  problems: string[];
  handoff: Handoff;
  text: string | null;
  /** `shared`, or `team`/`private` for a note encrypted with age (docs/privacy.md) */
  visibility: Visibility;
  /** false when the note is encrypted and this user's identity cannot decrypt it */
  readable: boolean;
  /** encrypted to others only: `problems[0]` is the one line that says so (not damage) */
  sealed?: boolean;
}

/** The visibility a version's commit records (`Handoff-Visibility`); an encrypted note without one is `team`. */
function encryptedVisibility(commit: Commit | undefined): Visibility {
  const said = commit ? parseTrailers(commit.message)['Handoff-Visibility'] : undefined;
  return said === 'private' ? 'private' : 'team';
}

/**
 * A note's bytes read as `HandoffStore.read` reads them (also for the bulk reader,
 * version-stream.ts): decoded, parsed, checked; the branch from the note when the commit
 * did not say it. An unreadable note is reported, never thrown.
 */
export async function interpretNote<V extends { branch: string | null | undefined; commit?: Commit }>(
  v: V,
  data: Buffer,
  maxBytes: number,
  keys?: Pick<NoteKeys, 'decrypt'>,
): Promise<V & NoteReading> {
  let visibility: Visibility = 'shared';
  const bad = (problem: string, text: string | null = null, readable = true) => ({
    ...v,
    valid: false,
    problems: [problem],
    handoff: {},
    text,
    visibility,
    readable,
  });
  // An encrypted note (docs/privacy.md) is decrypted here, the one place a note's bytes
  // become a handoff, when the user's identity is one of its recipients.
  if (isArmoredAge(data)) {
    visibility = encryptedVisibility(v.commit);
    const armored = data.toString('latin1');
    const got = keys ? await keys.decrypt(armored) : ({ kind: 'not-for-you' } as const);
    if ('kind' in got) {
      if (got.kind === 'damaged') return bad(`the encrypted note cannot be read: ${got.reason}`, null, false);
      const n = recipientCount(armored) ?? 0;
      const who = v.commit ? v.commit.author.name : 'someone';
      const when = v.commit ? new Date(v.commit.committer.timestamp * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') : 'an unknown date';
      const where = v.branch === undefined ? '' : ` on ${v.branch ?? 'a detached HEAD'}`;
      return { ...bad(`encrypted for ${n} reader${n === 1 ? '' : 's'}, not you; written by ${who}${where} at ${when}`, null, false), sealed: true };
    }
    data = Buffer.from(got.text, 'utf8');
  }
  // The search for binary bytes is left to the notes the fast reader declines: it accepts
  // none (src/core/bytes.ts, decodeTextUnsearched); the answers are decodeText's.
  const decoded = decodeTextUnsearched(data, maxBytes);
  if ('problem' in decoded) return bad(decoded.problem.message.replace(/^input/, 'the note'));
  let value: unknown;
  try {
    value = fastDocument(decoded.text);
  } catch {
    value = undefined; // parseDocument says what is wrong
  }
  if (value === undefined) {
    const binary = hasBinary(decoded.text) ? binaryProblem(data) : null;
    if (binary) return bad(binary.problem.message.replace(/^input/, 'the note'));
    try {
      value = await parseDocument(decoded.text);
    } catch (e) {
      return bad((e as Error).message, decoded.text);
    }
  }
  const { handoff, problems } = checkStored(value);
  const branch = v.branch === undefined ? (typeof handoff.branch === 'string' ? handoff.branch : null) : v.branch;
  // (Object.assign, not `{ ...v, branch, ... }`: a spread followed by more keys takes V8's
  // slow path, a tenth of log's CPU on 50,000 versions, and makes an object slow to read)
  return Object.assign({}, v, {
    branch,
    valid: problems.length === 0,
    problems: problems.map(String),
    handoff,
    text: decoded.text,
    visibility,
    readable: true,
  });
}
