/**
 * The `.tasks/NEXT_SESSION.md` convention: front matter `_last_updated_` and
 * `session_id`, then Recent commits, Open tracks (a `| Track | Readiness | Entry point |`
 * table), Ask the user, Don't do, Memory updates; an empty section says
 * "(none this round)". `parseNextSession` also reads files written with the convention's
 * Russian headings. Pure: a handoff in, Markdown out, and back.
 */
import { NESTED_ORDER, TOOL_KEYS, type Handoff, type OpenTrack } from './schema.js';
import { toCanonicalYaml, yamlString } from './canonical.js';
import { frontMatterSpan, keyLines, readScalar } from './front-matter.js';

export const EMPTY_MARK = '(none this round)';
const EMPTY_MARKS = [EMPTY_MARK, '(нет на этом раунде)', '(本轮无)', '(none)', '(нет)'];

type ListField = 'recent_commits' | 'ask_user' | 'guards' | 'memory_updates';
type SectionKey = ListField | 'open_tracks' | 'next_step' | ExtraKey;
/** Sections beyond the convention's six, written only when they hold something (export then import would lose them otherwise). */
type ExtraKey = 'last_discussed' | 'pending_questions' | 'tone' | 'notes' | 'continuation_refs' | 'other';

/** Headings, in the order they are written; `match` recognises the English and Russian spellings. */
const SECTIONS: { key: SectionKey; title: string; match: RegExp }[] = [
  { key: 'next_step', title: 'Next step', match: /^(next step|следующий шаг|下一步)/ },
  { key: 'recent_commits', title: 'Recent commits', match: /^(recent commits|последние коммиты|最近提交)/ },
  { key: 'open_tracks', title: 'Open tracks', match: /^(open (tracks|treks|треки)|открытые треки|未完成)/ },
  { key: 'ask_user', title: 'Ask the user', match: /^(ask the user|ask user|спроси (user'?а|пользователя)|询问用户)/ },
  { key: 'guards', title: "Don't do", match: /^(don'?t do|do not do|не делать|不要做)/ },
  { key: 'memory_updates', title: 'Memory updates', match: /^(memory updates|обновления памяти|记忆更新)/ },
];

const EXTRA_SECTIONS: { key: ExtraKey; title: string; match: RegExp }[] = [
  { key: 'last_discussed', title: 'Last discussed', match: /^(last discussed|последнее обсуждение|上次讨论)/ },
  { key: 'pending_questions', title: 'Pending questions', match: /^(pending questions|открытые вопросы|待定问题)/ },
  { key: 'tone', title: 'Tone', match: /^(tone|тон|语气)$/ },
  { key: 'notes', title: 'Notes', match: /^(notes|заметки|备注)$/ },
  { key: 'continuation_refs', title: 'Read next', match: /^(read next|читать дальше|接下来阅读)/ },
  { key: 'other', title: 'Other fields', match: /^(other fields|другие поля|其他字段)/ },
];

/** Fields a section or the front matter carries; everything else goes to "Other fields" as YAML. */
const SHOWN_TOP = new Set([
  'schema',
  'session_id',
  'status',
  'summary',
  'open_tracks',
  'ask_user',
  'guards',
  'memory_updates',
  'continuation_refs',
  'work_item',
  ...TOOL_KEYS,
]);
const SHOWN_NESTED: Record<string, readonly string[]> = { cursor: NESTED_ORDER.cursor, soft_context: NESTED_ORDER.soft_context, consolidation: ['triggered'] };

const filled = (v: unknown) =>
  !(
    v === undefined ||
    v === null ||
    v === '' ||
    (Array.isArray(v) && v.length === 0) ||
    (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0)
  );

/** The fields no section shows (mid_task, consolidation, unknown fields, ...), empty ones left out. */
function otherFields(h: Handoff): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(h)) {
    if (SHOWN_TOP.has(k)) continue;
    const shown = SHOWN_NESTED[k];
    if (shown && typeof v === 'object' && v !== null && !Array.isArray(v)) {
      const rest = Object.fromEntries(Object.entries(v).filter(([sk, sv]) => !shown.includes(sk) && filled(sv)));
      if (Object.keys(rest).length) out[k] = rest;
    } else if (filled(v)) out[k] = v;
  }
  // A track's keys beyond the table's three columns travel here under its name; the table
  // stays the one place its name, readiness and entry point are read from, so editing a row
  // is not overridden by this block.
  const extras = (h.open_tracks ?? []).map(trackExtras).filter((t): t is Record<string, unknown> => t !== null);
  if (extras.length) out.open_tracks = extras;
  return out;
}

const TRACK_COLUMNS: readonly string[] = NESTED_ORDER.open_tracks;

/** `{name, ...keys beyond the three columns}`, or null when the track has none. */
function trackExtras(t: OpenTrack): Record<string, unknown> | null {
  const rest = Object.entries(t).filter(([k]) => !TRACK_COLUMNS.includes(k));
  return rest.length ? { name: t.name ?? '', ...Object.fromEntries(rest) } : null;
}

/**
 * The tracks of the table with the extra keys "Other fields" gives for a track of the same
 * name (first unused match). The table wins for name, readiness and entry point; a track
 * deleted from the table takes its extra keys with it.
 */
export function mergeTrackExtras(table: OpenTrack[], other: unknown[]): OpenTrack[] {
  const used = new Set<number>();
  return table.map((t) => {
    const i = other.findIndex((o, j) => !used.has(j) && typeof o === 'object' && o !== null && !Array.isArray(o) && (o as OpenTrack).name === t.name);
    if (i < 0) return t;
    used.add(i);
    const rest = Object.entries(other[i] as Record<string, unknown>).filter(([k]) => !TRACK_COLUMNS.includes(k));
    return { ...t, ...Object.fromEntries(rest) } as OpenTrack;
  });
}

const TITLE = 'Next session handoff';

function bullet(items: string[]): string[] {
  if (!items.length) return [EMPTY_MARK];
  return items.map((x) => `- ${x.split('\n').join('\n  ')}`);
}

/** Free text: a line that would read as a heading or a list marker is escaped. */
function prose(s: string): string {
  return s
    .replace(/\s+$/, '')
    .split('\n')
    .map((l) => (/^(#|---\s*$|\\)/.test(l) ? `\\${l}` : l))
    .join('\n');
}

function unprose(lines: string[]): string {
  return lines
    .map((l) => (l.startsWith('\\') ? l.slice(1) : l))
    .join('\n')
    .trim();
}

function cell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, '<br>');
}

/** Renders a handoff as `.tasks/NEXT_SESSION.md`. `date` fills `_last_updated_`. */
export function renderNextSession(h: Handoff, date: string): string {
  const out = ['---', `_last_updated_: ${yamlString(date)}`, `session_id: ${yamlString(h.session_id ?? '')}`];
  if (h.status) out.push(`status: ${yamlString(h.status)}`);
  if (h.work_item) out.push(`work_item: ${yamlString(h.work_item)}`);
  out.push('---', '', `# ${TITLE}`, '');
  if (h.summary?.trim()) out.push(prose(h.summary), '');
  for (const s of SECTIONS) {
    out.push(`## ${s.title}`, '');
    if (s.key === 'next_step') {
      const step = h.cursor?.next_step ?? '';
      out.push(step.trim() ? prose(step) : EMPTY_MARK);
    } else if (s.key === 'open_tracks') {
      const tracks = h.open_tracks ?? [];
      if (!tracks.length) out.push(EMPTY_MARK);
      else {
        out.push('| Track | Readiness | Entry point |', '|---|---|---|');
        for (const t of tracks) out.push(`| ${cell(t.name ?? '')} | ${cell(t.readiness ?? '')} | ${cell(t.entry_point ?? '')} |`);
      }
    } else {
      // item by item: push(...items) with a note's 500,000-item list overflows the stack
      for (const line of bullet((h[s.key] as string[] | undefined) ?? [])) out.push(line);
    }
    out.push('');
  }
  const extra: [string, string[]][] = [
    ['Last discussed', h.cursor?.last_discussed?.trim() ? [prose(h.cursor.last_discussed)] : []],
    ['Pending questions', h.cursor?.pending_questions?.length ? bullet(h.cursor.pending_questions) : []],
    ['Tone', h.soft_context?.tone?.trim() ? [prose(h.soft_context.tone)] : []],
    ['Notes', h.soft_context?.notes?.length ? bullet(h.soft_context.notes) : []],
    ['Read next', h.continuation_refs?.length ? bullet(h.continuation_refs) : []],
  ];
  for (const [title, lines] of extra) {
    if (!lines.length) continue;
    out.push(`## ${title}`, '');
    for (const line of lines) out.push(line);
    out.push('');
  }
  const other = otherFields(h);
  if (Object.keys(other).length) out.push('## Other fields', '', '```yaml', toCanonicalYaml(other).replace(/\n$/, ''), '```', '');
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

export interface ParsedNextSession {
  /** the user fields the file carries, ready for `write` */
  handoff: Handoff;
  /** `_last_updated_` as written, if any */
  lastUpdated: string | null;
  /** headings that were not recognised (their text was appended to the summary) */
  unknownSections: string[];
  /** the YAML of the "Other fields" section, for the caller to parse and merge; null when absent */
  otherYaml: string | null;
}

function isEmptyMark(line: string): boolean {
  const t = line.trim().toLowerCase();
  return EMPTY_MARKS.some((m) => t === m.toLowerCase() || t === `- ${m.toLowerCase()}` || t === `_${m.toLowerCase()}_`);
}

function parseList(lines: string[]): string[] {
  const items: string[] = [];
  for (const line of lines) {
    if (isEmptyMark(line)) continue;
    const m = /^\s?(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (m) {
      if (m[1].trim() !== '') items.push(m[1].replace(/\s+$/, ''));
    } else if (items.length && /^\s{2}/.test(line)) {
      // a continuation line of the item before (rendered with two spaces of indent)
      items[items.length - 1] += `\n${line.slice(2).replace(/\s+$/, '')}`;
    } else if (line.trim() !== '' && !/^\s*<!--.*-->\s*$/.test(line)) {
      items.push(line.trim());
    }
  }
  return items;
}

function splitRow(line: string): string[] {
  const body = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  const cells: string[] = [];
  let cur = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\' && i + 1 < body.length) {
      cur += body[++i];
    } else if (c === '|') {
      cells.push(cur);
      cur = '';
    } else cur += c;
  }
  cells.push(cur);
  return cells.map((x) => x.trim().replace(/<br>/g, '\n'));
}

/** Table rows after the header; columns by position: track, readiness, entry point. */
function parseTracks(lines: string[]): OpenTrack[] {
  const rows = lines.filter((l) => l.trim().startsWith('|'));
  const tracks: OpenTrack[] = [];
  rows.forEach((row, i) => {
    if (i === 0) return; // header, whatever its language
    const cells = splitRow(row);
    if (cells.every((c) => /^:?-{2,}:?$/.test(c) || c === '')) return;
    const [name = '', readiness = '', entry_point = ''] = cells;
    if (name === '' && readiness === '' && entry_point === '') return;
    tracks.push({ name, readiness, entry_point });
  });
  // A list instead of a table: "- name (readiness) -> entry" is kept as the name.
  if (!rows.length) for (const item of parseList(lines)) tracks.push({ name: item, readiness: '', entry_point: '' });
  return tracks;
}

function headingKey(title: string): SectionKey | null {
  const t = title.trim().toLowerCase().replace(/ё/g, 'е').replace(/[’‘]/g, "'");
  return SECTIONS.find((s) => s.match.test(t))?.key ?? EXTRA_SECTIONS.find((s) => s.match.test(t))?.key ?? null;
}

/** The body of a fenced block (```yaml ... ```), or the lines as they are. */
function fenced(lines: string[]): string {
  const start = lines.findIndex((l) => /^```/.test(l.trim()));
  if (start < 0) return lines.join('\n').trim();
  const end = lines.findIndex((l, i) => i > start && /^```\s*$/.test(l.trim()));
  return `${lines.slice(start + 1, end < 0 ? undefined : end).join('\n')}\n`;
}

/** Parses a NEXT_SESSION.md (English or Russian headings). */
export function parseNextSession(text: string): ParsedNextSession {
  const src = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  let otherYaml: string | null = null;
  const front: Record<string, string> = {};
  const span = frontMatterSpan(src);
  if (span)
    for (const [key, raw] of keyLines(src, span.lines, span.close)) {
      const v = readScalar(raw);
      if (typeof v === 'string') front[key] = v;
    }
  const lines = (span ? src.slice(span.body) : src).split('\n');
  let i = 0;
  const intro: string[] = [];
  const sections: { title: string; lines: string[] }[] = [];
  for (; i < lines.length; i++) {
    const line = lines[i];
    const h2 = /^##\s+(.*?)\s*#*\s*$/.exec(line);
    if (h2) sections.push({ title: h2[1], lines: [] });
    else if (sections.length) sections[sections.length - 1].lines.push(line);
    else if (!/^#\s/.test(line)) intro.push(line);
  }

  const h: Handoff = {};
  if (front.session_id) h.session_id = front.session_id;
  if (front.status) h.status = front.status as Handoff['status'];
  if (front.work_item) h.work_item = front.work_item;
  const cursor: NonNullable<Handoff['cursor']> = {};
  const soft: NonNullable<Handoff['soft_context']> = {};
  const summary: string[] = [unprose(intro)];
  const unknownSections: string[] = [];
  for (const s of sections) {
    const key = headingKey(s.title);
    if (key === 'open_tracks') h.open_tracks = parseTracks(s.lines);
    else if (key === 'next_step') cursor.next_step = unprose(s.lines.filter((l) => !isEmptyMark(l)));
    else if (key === 'last_discussed') cursor.last_discussed = unprose(s.lines.filter((l) => !isEmptyMark(l)));
    else if (key === 'pending_questions') cursor.pending_questions = parseList(s.lines);
    else if (key === 'tone') soft.tone = unprose(s.lines.filter((l) => !isEmptyMark(l)));
    else if (key === 'notes') soft.notes = parseList(s.lines);
    else if (key === 'continuation_refs') h.continuation_refs = parseList(s.lines);
    else if (key === 'other') otherYaml = fenced(s.lines);
    else if (key) h[key] = parseList(s.lines);
    else {
      unknownSections.push(s.title);
      summary.push(`## ${s.title}\n${s.lines.join('\n').trim()}`.trim());
    }
  }
  if (Object.keys(cursor).length) h.cursor = ordered(cursor, NESTED_ORDER.cursor);
  if (Object.keys(soft).length) h.soft_context = ordered(soft, NESTED_ORDER.soft_context);
  // recent_commits is filled by the tool at write time; the file's list is history, not input.
  delete h.recent_commits;
  const text2 = summary.filter(Boolean).join('\n\n');
  if (text2) h.summary = text2;
  return { handoff: h, lastUpdated: front._last_updated_ ?? null, unknownSections, otherYaml };
}

function ordered<T extends Record<string, unknown>>(o: T, order: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const k of order) if (k in o) out[k] = o[k];
  return out as T;
}

/** Does this text follow the NEXT_SESSION.md convention (rather than being YAML or JSON)? */
export function looksLikeNextSession(text: string): boolean {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  return lines.some((l) => /^#\s+next session/i.test(l) || (/^##\s+\S/.test(l) && headingKey(l.replace(/^##\s+/, '')) !== null));
}
