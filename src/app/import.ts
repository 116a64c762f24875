/**
 * `import FILE`: a handoff kept in a file (the `.tasks/NEXT_SESSION.md` convention, English
 * or Russian headings, or a JSON/YAML handoff) appended as a version: the migration path
 * for teams that kept handoffs in a file. The content then goes through `write` unchanged:
 * the same validation, secret scan and "unchanged" rule.
 */
import type { Repo } from '../git/repo.js';
import { writeHandoff, type WriteResult } from './write.js';
import { decodeText, DEFAULT_MAX_BYTES } from '../core/bytes.js';
import { looksLikeNextSession, parseNextSession } from '../core/next-session.js';
import { InvalidInput } from '../errors.js';

export const IMPORT_FORMATS = ['auto', 'next-session', 'json', 'yaml'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export interface ImportRequest {
  bytes: Buffer;
  name: string;
  format: ImportFormat;
  dryRun: boolean;
}

export interface ImportResult extends WriteResult {
  format: 'next-session' | 'document';
  /** headings of the file that were not recognised (kept in the summary) */
  unknownSections: string[];
}

export async function importHandoff(repo: Repo, req: ImportRequest): Promise<ImportResult> {
  const maxBytes = await repo.configInt('handoff.maxBytes', DEFAULT_MAX_BYTES);
  const decoded = decodeText(req.bytes, maxBytes);
  if ('problem' in decoded) throw new InvalidInput(decoded.problem.message.replace(/^input/, req.name));
  const nextSession = req.format === 'next-session' || (req.format === 'auto' && looksLikeNextSession(decoded.text));
  if (!nextSession && req.format === 'auto' && /\.(md|markdown)$/i.test(req.name)) {
    // Read as YAML, Markdown is a comment and a stray `key: value` (issue 11): say which format reads it.
    throw new InvalidInput(
      `${req.name} is Markdown but not a .tasks/NEXT_SESSION.md ('# Next session handoff' and '## ' sections such as Open tracks, Ask the user, Don't do); put it in that format (see 'git handoff export --format next-session'), or give YAML or JSON with --format yaml`,
    );
  }
  if (!nextSession) {
    const r = await writeHandoff(repo, { input: req.bytes, inputName: req.name, flags: {}, dryRun: req.dryRun });
    return { ...r, format: 'document', unknownSections: [] };
  }
  const parsed = parseNextSession(decoded.text);
  const input = Buffer.from(JSON.stringify(parsed.handoff), 'utf8');
  const r = await writeHandoff(repo, { input, inputName: req.name, flags: {}, dryRun: req.dryRun });
  return { ...r, format: 'next-session', unknownSections: parsed.unknownSections };
}
