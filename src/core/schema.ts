/**
 * The handoff, schema version 1 (docs/format.md "The note"). Pure: plain values in, plain
 * values out. `normalizeInput` checks what a user gives to `write`; `checkStored` checks
 * what is read back from a note (tool-filled fields may be absent there).
 */
export type Status = 'active' | 'paused' | 'done';
export const STATUSES: readonly Status[] = ['active', 'paused', 'done'];

export interface OpenTrack {
  name: string;
  readiness: string;
  entry_point: string;
  [k: string]: unknown;
}

/** A handoff as stored: known keys typed, unknown keys kept. */
export interface Handoff {
  schema?: number;
  session_id?: string;
  status?: Status;
  summary?: string;
  cursor?: { last_discussed?: string; pending_questions?: string[]; next_step?: string; [k: string]: unknown };
  soft_context?: { tone?: string; notes?: string[]; [k: string]: unknown };
  open_tracks?: OpenTrack[];
  ask_user?: string[];
  guards?: string[];
  memory_updates?: string[];
  mid_task?: { slug: string; where_stopped: string; [k: string]: unknown };
  continuation_refs?: string[];
  consolidation?: { triggered: boolean; produced: string[]; [k: string]: unknown };
  work_item?: string;
  date?: string;
  branch?: string | null;
  head?: string;
  head_tree?: string;
  head_patch_id?: string | null;
  recent_commits?: string[];
  content_hashes?: Record<string, string>;
  [k: string]: unknown;
}

/** Keys in stored order (docs/format.md "The note": the order of its table). */
export const USER_KEYS = [
  'session_id',
  'status',
  'summary',
  'cursor',
  'soft_context',
  'open_tracks',
  'ask_user',
  'guards',
  'memory_updates',
  'mid_task',
  'continuation_refs',
  'consolidation',
  'work_item',
] as const;
export const TOOL_KEYS = ['date', 'branch', 'head', 'head_tree', 'head_patch_id', 'recent_commits', 'content_hashes'] as const;
export const KEY_ORDER: readonly string[] = ['schema', ...USER_KEYS, ...TOOL_KEYS];
export const NESTED_ORDER: Record<string, readonly string[]> = {
  cursor: ['last_discussed', 'pending_questions', 'next_step'],
  soft_context: ['tone', 'notes'],
  mid_task: ['slug', 'where_stopped'],
  consolidation: ['triggered', 'produced'],
  open_tracks: ['name', 'readiness', 'entry_point'],
};

export const MAX_PENDING_QUESTIONS = 3;
export const WORK_ITEM_RE = /^(github:[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+#[1-9]\d*|local:#[1-9]\d*)$/;

/** One problem with a handoff, naming the field. */
export class SchemaProblem {
  constructor(
    readonly field: string,
    readonly message: string,
  ) {}
  toString(): string {
    return `${this.field}: ${this.message}`;
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : isObj(v) ? 'a mapping' : `a ${typeof v}`);

interface Checker {
  problems: SchemaProblem[];
  /** write input: stricter (limits, work_item syntax); read: types only */
  strict: boolean;
}

function str(c: Checker, field: string, v: unknown, { nullable = false } = {}): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === null) return nullable ? null : '';
  if (typeof v !== 'string') {
    c.problems.push(new SchemaProblem(field, `must be a string, not ${typeName(v)}`));
    return undefined;
  }
  return v;
}

function strList(c: Checker, field: string, v: unknown, max?: number): string[] | undefined {
  if (v === undefined) return undefined;
  if (v === null) return [];
  if (!Array.isArray(v)) {
    c.problems.push(new SchemaProblem(field, `must be a list of strings, not ${typeName(v)}`));
    return undefined;
  }
  const bad = v.findIndex((x) => typeof x !== 'string');
  if (bad >= 0) {
    c.problems.push(new SchemaProblem(`${field}[${bad}]`, `must be a string, not ${typeName(v[bad])}`));
    return undefined;
  }
  if (max !== undefined && c.strict && v.length > max) {
    c.problems.push(new SchemaProblem(field, `has ${v.length} items; at most ${max} are allowed`));
  }
  return v as string[];
}

function mapping(c: Checker, field: string, v: unknown): Obj | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObj(v)) {
    c.problems.push(new SchemaProblem(field, `must be a mapping, not ${typeName(v)}`));
    return undefined;
  }
  return v;
}

/** Builds an object with `order` first, then the remaining keys of `src` in their order. */
function ordered(src: Obj, known: Obj, order: readonly string[]): Obj {
  const out: Obj = {};
  for (const k of order) if (known[k] !== undefined) out[k] = known[k];
  const inOrder = orderSet(order);
  for (const k of Object.keys(src)) if (!inOrder.has(k) && src[k] !== undefined) out[k] = src[k];
  return out;
}

// The orders are the constants above: their sets are made once (a list search for every key
// of every note was a tenth of reading 50,000 of them).
const orderSets = new WeakMap<readonly string[], Set<string>>();
function orderSet(order: readonly string[]): Set<string> {
  let set = orderSets.get(order);
  if (!set) orderSets.set(order, (set = new Set(order)));
  return set;
}

function checkFields(input: Obj, c: Checker): Handoff {
  const h: Obj = {};
  if (input.schema !== undefined && input.schema !== 1) {
    c.problems.push(new SchemaProblem('schema', `unsupported schema ${JSON.stringify(input.schema)}; this tool reads schema 1`));
  }
  h.schema = input.schema;
  h.session_id = str(c, 'session_id', input.session_id);
  if (input.status !== undefined) {
    if (typeof input.status !== 'string' || !STATUSES.includes(input.status as Status)) {
      c.problems.push(new SchemaProblem('status', `must be one of active, paused, done, not ${JSON.stringify(input.status)}`));
    } else h.status = input.status;
  }
  h.summary = str(c, 'summary', input.summary);

  const cursor = mapping(c, 'cursor', input.cursor);
  if (cursor) {
    h.cursor = ordered(
      cursor,
      {
        last_discussed: str(c, 'cursor.last_discussed', cursor.last_discussed),
        pending_questions: strList(c, 'cursor.pending_questions', cursor.pending_questions, MAX_PENDING_QUESTIONS),
        next_step: str(c, 'cursor.next_step', cursor.next_step),
      },
      NESTED_ORDER.cursor,
    );
  }
  const soft = mapping(c, 'soft_context', input.soft_context);
  if (soft) {
    h.soft_context = ordered(
      soft,
      {
        tone: str(c, 'soft_context.tone', soft.tone),
        notes: strList(c, 'soft_context.notes', soft.notes),
      },
      NESTED_ORDER.soft_context,
    );
  }
  if (input.open_tracks !== undefined && input.open_tracks !== null) {
    if (!Array.isArray(input.open_tracks)) {
      c.problems.push(new SchemaProblem('open_tracks', `must be a list of {name, readiness, entry_point}, not ${typeName(input.open_tracks)}`));
    } else {
      h.open_tracks = input.open_tracks.map((t, i) => {
        const f = `open_tracks[${i}]`;
        if (!isObj(t)) {
          c.problems.push(new SchemaProblem(f, `must be a mapping {name, readiness, entry_point}, not ${typeName(t)}`));
          return t;
        }
        const name = str(c, `${f}.name`, t.name);
        if (c.strict && !name) c.problems.push(new SchemaProblem(`${f}.name`, 'is required'));
        return ordered(
          t,
          {
            name,
            readiness: str(c, `${f}.readiness`, t.readiness) ?? (c.strict ? '' : undefined),
            entry_point: str(c, `${f}.entry_point`, t.entry_point) ?? (c.strict ? '' : undefined),
          },
          NESTED_ORDER.open_tracks,
        );
      });
    }
  } else if (input.open_tracks === null) h.open_tracks = [];
  for (const k of ['ask_user', 'guards', 'memory_updates', 'continuation_refs'] as const) h[k] = strList(c, k, input[k]);

  const mid = mapping(c, 'mid_task', input.mid_task);
  if (mid) {
    h.mid_task = ordered(
      mid,
      {
        slug: str(c, 'mid_task.slug', mid.slug) ?? '',
        where_stopped: str(c, 'mid_task.where_stopped', mid.where_stopped) ?? '',
      },
      NESTED_ORDER.mid_task,
    );
  }
  const cons = mapping(c, 'consolidation', input.consolidation);
  if (cons) {
    if (cons.triggered !== undefined && typeof cons.triggered !== 'boolean') {
      c.problems.push(new SchemaProblem('consolidation.triggered', `must be true or false, not ${typeName(cons.triggered)}`));
    }
    const produced = strList(c, 'consolidation.produced', cons.produced) ?? [];
    h.consolidation = ordered(cons, { triggered: c.strict ? produced.length > 0 : cons.triggered, produced }, NESTED_ORDER.consolidation);
  }
  const wi = str(c, 'work_item', input.work_item);
  if (wi && c.strict && !WORK_ITEM_RE.test(wi)) {
    c.problems.push(new SchemaProblem('work_item', `must look like github:owner/repo#N or local:#N, not ${JSON.stringify(wi)}`));
  }
  h.work_item = wi || undefined;

  h.date = str(c, 'date', input.date);
  h.branch = str(c, 'branch', input.branch, { nullable: true });
  h.head = str(c, 'head', input.head);
  h.head_tree = str(c, 'head_tree', input.head_tree);
  h.head_patch_id = str(c, 'head_patch_id', input.head_patch_id, { nullable: true });
  h.recent_commits = strList(c, 'recent_commits', input.recent_commits);
  const hashes = mapping(c, 'content_hashes', input.content_hashes);
  if (hashes) {
    for (const [k, v] of Object.entries(hashes)) if (typeof v !== 'string') c.problems.push(new SchemaProblem(`content_hashes.${k}`, 'must be a string'));
    h.content_hashes = hashes as Record<string, string>;
  }
  return ordered(input, h, KEY_ORDER) as Handoff;
}

/** `open_treks` (the source design's spelling) is accepted as `open_tracks`. */
function applyAliases(input: Obj, problems: SchemaProblem[]): Obj {
  if (!('open_treks' in input)) return input;
  if ('open_tracks' in input) {
    problems.push(new SchemaProblem('open_treks', 'give open_tracks or its alias open_treks, not both'));
    return input;
  }
  const out: Obj = {};
  for (const [k, v] of Object.entries(input)) out[k === 'open_treks' ? 'open_tracks' : k] = v;
  return out;
}

export interface CheckResult {
  handoff: Handoff;
  problems: SchemaProblem[];
}

/** Checks and normalizes what a user gives to `write` (before tool-filled fields are set). */
export function normalizeInput(input: unknown): CheckResult {
  if (!isObj(input)) return { handoff: {}, problems: [new SchemaProblem('(document)', `must be a mapping, not ${typeName(input)}`)] };
  const problems: SchemaProblem[] = [];
  loneSurrogates(input, '', problems);
  const aliased = applyAliases(input, problems);
  const handoff = checkFields(aliased, { problems, strict: true });
  return { handoff, problems };
}

const LONE_SURROGATE = /\p{Cs}/u;
/**
 * Every string given (keys included, unknown fields too) must be text: a lone surrogate
 * (JSON's `"\ud800"`) has no UTF-8 form, so storing it would store U+FFFD instead, and the
 * same input would then differ from what was stored each time it is written again.
 */
function loneSurrogates(value: unknown, path: string, out: SchemaProblem[]): void {
  const say = (at: string, s: string) => {
    const unit = s.match(LONE_SURROGATE)![0].charCodeAt(0).toString(16);
    out.push(new SchemaProblem(at || '(document)', `holds a lone surrogate (\\u${unit}), which is not text and has no UTF-8 form`));
  };
  if (typeof value === 'string') {
    if (LONE_SURROGATE.test(value)) say(path, value);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => loneSurrogates(v, `${path}[${i}]`, out));
  } else if (isObj(value)) {
    for (const [k, v] of Object.entries(value)) {
      const at = path ? `${path}.${k}` : k;
      if (LONE_SURROGATE.test(k)) say(`${path ? `${path}.` : ''}${JSON.stringify(k)}`, k);
      else loneSurrogates(v, at, out);
    }
  }
}

/** Checks a note read back from git: a valid handoff is a mapping whose known fields have the right types. */
export function checkStored(value: unknown): CheckResult {
  if (!isObj(value)) return { handoff: {}, problems: [new SchemaProblem('(note)', `is not a YAML mapping but ${typeName(value)}`)] };
  const problems: SchemaProblem[] = [];
  const handoff = checkFields(applyAliases(value, problems), { problems, strict: false });
  return { handoff, problems };
}

/**
 * Fills the defaults a written version always carries, so an empty section reads as
 * "empty" rather than "forgotten" (docs/format.md "The note": an empty list is stored as `[]`).
 */
export function withDefaults(h: Handoff): Handoff {
  const cursor = { last_discussed: '', pending_questions: [] as string[], next_step: '', ...(h.cursor ?? {}) };
  const soft = { tone: '', notes: [] as string[], ...(h.soft_context ?? {}) };
  const produced = h.consolidation?.produced ?? [];
  const filled: Obj = {
    ...h,
    schema: 1,
    status: h.status ?? 'active',
    summary: h.summary ?? '',
    cursor: ordered(cursor, cursor, NESTED_ORDER.cursor),
    soft_context: ordered(soft, soft, NESTED_ORDER.soft_context),
    open_tracks: h.open_tracks ?? [],
    ask_user: h.ask_user ?? [],
    guards: h.guards ?? [],
    memory_updates: h.memory_updates ?? [],
    continuation_refs: h.continuation_refs ?? [],
    consolidation: ordered(h.consolidation ?? {}, { triggered: produced.length > 0, produced }, NESTED_ORDER.consolidation),
  };
  return ordered(filled, filled, KEY_ORDER) as Handoff;
}

/** The handoff without tool-filled fields: what "identical content" compares. */
export function userContent(h: Handoff): Handoff {
  const out: Obj = {};
  for (const [k, v] of Object.entries(h)) if (k !== 'schema' && !(TOOL_KEYS as readonly string[]).includes(k)) out[k] = v;
  return out as Handoff;
}

/**
 * The type of each field a user gives, as data: what `checkFields` enforces, described so
 * the MCP tools' JSON Schemas are generated from it (core/handoff-json-schema.ts) rather
 * than written twice. test/unit/handoff-json-schema.test.ts holds the two in agreement.
 */
export type FieldType =
  | 'string'
  | 'strings'
  | 'status'
  | 'work_item'
  | 'boolean'
  | { object: Record<string, FieldType>; required?: string[] }
  | { list: FieldType; maxItems?: number };

export const USER_FIELD_TYPES: Record<(typeof USER_KEYS)[number], FieldType> = {
  session_id: 'string',
  status: 'status',
  summary: 'string',
  cursor: { object: { last_discussed: 'string', pending_questions: { list: 'string', maxItems: MAX_PENDING_QUESTIONS }, next_step: 'string' } },
  soft_context: { object: { tone: 'string', notes: 'strings' } },
  open_tracks: { list: { object: { name: 'string', readiness: 'string', entry_point: 'string' }, required: ['name'] } },
  ask_user: 'strings',
  guards: 'strings',
  memory_updates: 'strings',
  mid_task: { object: { slug: 'string', where_stopped: 'string' } },
  continuation_refs: 'strings',
  consolidation: { object: { triggered: 'boolean', produced: 'strings' } },
  work_item: 'work_item',
};
