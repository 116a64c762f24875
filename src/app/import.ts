/**
 * `import FILE`: a handoff kept in a file (the `.tasks/NEXT_SESSION.md` convention, English
 * or Russian headings, or a JSON/YAML handoff) appended as a version: the migration path
 * for teams that kept handoffs in a file. The content then goes through `write` unchanged:
 * the same validation, secret scan and "unchanged" rule.
 */
import type { Repo } from '../git/repo.js';
import { writeHandoff, type WriteResult } from './write.js';
import { decodeText, DEFAULT_MAX_BYTES } from '../core/bytes.js';
import { looksLikeNextSession, mergeTrackExtras, parseNextSession, renderNextSession } from '../core/next-session.js';
import { parseDocument, ParseError } from '../core/parse.js';
import { KEY_ORDER, userContent, type Handoff, type OpenTrack } from '../core/schema.js';
import { VersionReader } from '../history/reader.js';
import { InvalidHandoff, InvalidInput } from '../errors.js';

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

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const MERGED = ['cursor', 'soft_context', 'consolidation'];

/** A NEXT_SESSION.md with its "Other fields" YAML merged in. */
async function readNextSession(text: string, name: string): Promise<{ handoff: Handoff; unknownSections: string[] }> {
  const parsed = parseNextSession(text);
  const h = parsed.handoff as Obj;
  if (parsed.otherYaml && parsed.otherYaml.trim()) {
    let other: unknown;
    try {
      other = await parseDocument(parsed.otherYaml);
    } catch (e) {
      if (e instanceof ParseError) throw new InvalidHandoff(`${name}: section 'Other fields': ${e.message}`, { line: e.line });
      throw e;
    }
    if (!isObj(other)) throw new InvalidHandoff(`${name}: section 'Other fields' must hold a YAML mapping`);
    for (const [k, v] of Object.entries(other)) {
      if (k === 'open_tracks' && Array.isArray(v) && Array.isArray(h.open_tracks)) h.open_tracks = mergeTrackExtras(h.open_tracks as OpenTrack[], v);
      else h[k] = MERGED.includes(k) && isObj(v) && isObj(h[k]) ? { ...(h[k] as Obj), ...v } : v;
    }
  }
  return { handoff: h as Handoff, unknownSections: parsed.unknownSections };
}

/** Fields the file shows exactly as the base version shows them take the base's exact value. */
function keepUnedited(h: Obj, shown: Obj, base: Obj): void {
  for (const k of new Set([...Object.keys(h), ...Object.keys(base)])) {
    if (MERGED.includes(k) && isObj(base[k])) {
      const sub = isObj(h[k]) ? { ...(h[k] as Obj) } : {};
      const shownSub = isObj(shown[k]) ? (shown[k] as Obj) : {};
      for (const sk of Object.keys(base[k] as Obj)) if (same(sub[sk], shownSub[sk])) sub[sk] = (base[k] as Obj)[sk];
      h[k] = sub;
    } else if (same(h[k], shown[k]) && base[k] !== undefined) h[k] = base[k];
  }
}

/**
 * Markdown without a file name to tell (stdin): a heading line, and read as YAML it is no
 * mapping or a mapping with not one handoff field (its `key: value` lines would all be kept
 * as unknown fields). A YAML handoff with a comment on top holds known fields.
 */
async function readsAsMarkdown(text: string): Promise<boolean> {
  if (!/^#{1,6}[ \t]+\S/m.test(text)) return false;
  let doc: unknown;
  try {
    doc = await parseDocument(text);
  } catch {
    return true;
  }
  return !isObj(doc) || !Object.keys(doc).some((k) => KEY_ORDER.includes(k) || k === 'open_treks');
}

export async function importHandoff(repo: Repo, req: ImportRequest): Promise<ImportResult> {
  const maxBytes = await repo.configInt('handoff.maxBytes', DEFAULT_MAX_BYTES);
  const decoded = decodeText(req.bytes, maxBytes);
  if ('problem' in decoded) throw new InvalidInput(decoded.problem.message.replace(/^input/, req.name));
  const nextSession = req.format === 'next-session' || (req.format === 'auto' && looksLikeNextSession(decoded.text));
  if (
    !nextSession &&
    req.format === 'auto' &&
    (/\.(md|markdown)$/i.test(req.name) || (!/\.(ya?ml|json)$/i.test(req.name) && (await readsAsMarkdown(decoded.text))))
  ) {
    // Read as YAML, Markdown is a comment and a stray `key: value`: say which format reads it.
    throw new InvalidInput(
      `${req.name} is Markdown but not a .tasks/NEXT_SESSION.md ('# Next session handoff' and '## ' sections such as Open tracks, Ask the user, Don't do); put it in that format (see 'git handoff export --format next-session'), or give YAML or JSON with --format yaml`,
    );
  }
  if (!nextSession) {
    const r = await writeHandoff(repo, { input: req.bytes, inputName: req.name, flags: {}, dryRun: req.dryRun });
    return { ...r, format: 'document', unknownSections: [] };
  }
  const parsed = await readNextSession(decoded.text, req.name);
  const latest = (await new VersionReader(repo).latest({ branch: repo.headBranch() })).version;
  // What the file shows as the latest version shows it is the latest version's, byte for byte
  // (Markdown drops a trailing newline, an indent): export -> import appends nothing, and
  // an edit changes only what was edited.
  if (latest) {
    const base = userContent(latest.handoff) as Obj;
    const shown = (await readNextSession(renderNextSession(base as Handoff, typeof latest.handoff.date === 'string' ? latest.handoff.date : ''), req.name))
      .handoff as Obj;
    keepUnedited(parsed.handoff as Obj, shown, base);
  }
  const input = Buffer.from(JSON.stringify(parsed.handoff), 'utf8');
  const r = await writeHandoff(repo, { input, inputName: req.name, flags: {}, dryRun: req.dryRun });
  return { ...r, format: 'next-session', unknownSections: parsed.unknownSections };
}
