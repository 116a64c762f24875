/**
 * The MCP tools and resource: the same use cases as the CLI (show, write, log,
 * diff, search, status, seed), their arguments described by JSON Schemas generated from
 * the handoff schema, their failures returned as tool errors with our stable codes. No SDK
 * here: the server (server.ts) only routes requests to `callTool` / `readResource`.
 */
import { provenanceJson } from '../../core/provenance.js';
import type { Repo } from '../../git/repo.js';
import { withRepo } from '../repository.js';
import { showHandoff, type ShowResult } from '../show.js';
import { bookmarkText, notices, showJson } from '../show-report.js';
import { logVersions } from '../log.js';
import { diffJson, diffText, diffVersions } from '../diff.js';
import { writeHandoff } from '../write.js';
import { groupHits, groupNote, searchHandoffs } from '../search.js';
import { allStatuses, itemStatus, type ItemStatus } from '../status.js';
import { seedFor } from '../seed.js';
import { parseItemOption } from '../work-items.js';
import { serializeReceipt } from '../../core/receipt.js';
import { handoffInputSchema, handoffPatchSchema, type JsonSchema } from '../../core/handoff-json-schema.js';
import { checkArgs } from './check-args.js';
import { isHandoffError, reportedMessage, UsageError } from '../../errors.js';
import { visibleText } from '../../core/visible-text.js';
import type { Visibility } from '../../core/age.js';

export interface ToolResult {
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
  [k: string]: unknown;
}

interface ToolDef {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  readOnly: boolean;
  run(repo: Repo, args: Record<string, unknown>, session: McpSession): Promise<{ data: Record<string, unknown>; text: string }>;
}

/**
 * What one MCP session (one client: the stdio process, or one HTTP session) remembers: the
 * version `handoff_show` gave it, which a whole document it writes continues (docs/format.md
 * "Lineage"), then the version it wrote.
 */
export interface McpSession {
  shown: string | null;
}

const s = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: 'string', description, ...extra });
const b = (description: string): JsonSchema => ({ type: 'boolean', description });
const n = (description: string): JsonSchema => ({ type: 'integer', minimum: 0, description });
const obj = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  additionalProperties: false,
});
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

const SELECTION = {
  branch: s('the versions of this branch (default: the current branch)'),
  all: b('the versions of every branch'),
};

/**
 * The bookmark `git handoff show` prints, its notices from the one owner (show-report.ts),
 * so an agent reading it through MCP is told everything a person at the terminal is.
 * With no version to show, the notices alone (the CLI prints them on stderr) and one line.
 */
function bookmarkOf(r: ShowResult): string {
  const bookmark = bookmarkText(r);
  if (bookmark !== null) return bookmark;
  const lines = notices(r);
  return [...lines, lines.length ? 'no handoff to show' : 'no handoff has been written in this repository yet'].join('\n');
}

function itemData(st: ItemStatus) {
  return {
    workItem: st.workItem,
    state: st.state,
    title: st.title,
    handoffDoc: st.handoffDoc,
    valid: st.valid,
    problems: st.problems,
    receipts: st.receipts.map((r) => JSON.parse(serializeReceipt(r))),
    authorization: st.authorization,
  };
}

export const TOOLS: ToolDef[] = [
  {
    name: 'handoff_show',
    title: 'Show the latest handoff',
    description:
      'The latest handoff of the current branch (or a given version). As text: the bookmark exactly as `git handoff show` prints it, its notices first (e.g. stale, a new one due, two sessions diverged, versions a remote has that this clone lacks, moved by a rewrite). As structured content: the `show --json` document, and `notices`, the same lines. Read it at session start; confirm with the user before acting on it.',
    inputSchema: obj({ version: s('a version id, a unique prefix of one, or ~N (N versions before the latest)'), ...SELECTION }),
    readOnly: true,
    async run(repo, a, session) {
      const r = await showHandoff(repo, { version: str(a.version), branch: str(a.branch), all: a.all === true });
      if (r.version) session.shown = r.version.id;
      return { data: { ...showJson(r), notices: notices(r) }, text: bookmarkOf(r) };
    },
  },
  {
    name: 'handoff_write',
    title: 'Write a handoff version',
    description:
      'Appends a new handoff version: `handoff` gives the whole handoff, `patch` changes the latest one (the fields given replace theirs; cursor, soft_context and consolidation merge key by key; null empties a field). Same validation, secret refusal and compare-and-swap as `git handoff write`; nothing is written when it refuses. Returns the version id and what changed.',
    inputSchema: obj({
      handoff: { ...handoffInputSchema(), description: 'the whole handoff (fields not given are empty)' },
      patch: handoffPatchSchema(),
      visibility: s(
        'who may read it (docs/privacy.md): shared (in the clear), team (encrypted to .handoff-recipients at HEAD) or private (to your own keys); default: as closed as the version a patch continues, else handoff.visibility, else shared',
        { enum: ['shared', 'team', 'private'] },
      ),
      dry_run: b('validate and show what would be written; write nothing'),
    }),
    readOnly: false,
    async run(repo, a, session) {
      if (a.handoff !== undefined && a.patch !== undefined) throw new UsageError('handoff_write: give handoff or patch, not both');
      if (a.handoff === undefined && a.patch === undefined)
        throw new UsageError('handoff_write: give handoff (the whole handoff) or patch (changes to the latest)');
      const patch = a.patch !== undefined;
      const r = await writeHandoff(repo, {
        input: Buffer.from(JSON.stringify(patch ? a.patch : a.handoff)),
        inputName: patch ? 'patch' : 'handoff',
        patch,
        dryRun: a.dry_run === true,
        flags: {},
        visibility: a.visibility as Visibility | undefined,
        // a whole document continues what this session was shown (a patch, the head)
        shown: session.shown,
      });
      if (!r.dryRun && r.version) session.shown = r.version;
      const summary = r.unchanged ? 'unchanged' : r.changes.line;
      const data = {
        ok: true,
        version: r.version,
        target: r.target,
        unchanged: r.unchanged,
        ...(r.dryRun ? { dry_run: true } : {}),
        change_summary: summary,
        changes: r.changes,
        visibility: r.visibility,
        ...(r.warnings.length ? { warnings: r.warnings } : {}),
        handoff: r.handoff,
      };
      const head = r.unchanged
        ? `unchanged: version ${r.version!.slice(0, 12)} already holds this handoff`
        : r.dryRun
          ? `dry run: would append a version for ${r.target.slice(0, 7)}; nothing was written`
          : `wrote version ${r.version} for ${r.target.slice(0, 7)}${r.handoff.branch ? ` on ${r.handoff.branch}` : ''}${r.visibility === 'shared' ? '' : ` (${r.visibility}: encrypted for ${r.recipients} reader${r.recipients === 1 ? '' : 's'})`}`;
      return { data, text: [head, summary, ...r.warnings.map((w) => `warning: ${w}`)].join('\n') };
    },
  },
  {
    name: 'handoff_log',
    title: 'List handoff versions',
    description:
      'Handoff versions, newest first: id, date, validity, session, status, summary, and whose words each holds (author, origin, signature; own: written by the current user). By default the current branch (every version when it has none).',
    inputSchema: obj({ limit: n('at most this many versions (default 20)'), ...SELECTION }),
    readOnly: true,
    async run(repo, a) {
      const limit = typeof a.limit === 'number' ? a.limit : 20;
      const entries = await logVersions(repo, { branch: str(a.branch), all: a.all === true, checkBranch: false, bulk: false });
      const rows = [];
      for await (const { version: v, date, provenance, own } of entries) {
        if (rows.length >= limit) break;
        rows.push({
          version: v.id,
          target: v.target,
          date,
          // encrypted for others is not invalid (readable: false says it); a damaged ciphertext is
          valid: v.valid || v.sealed === true,
          branch: v.branch ?? null,
          session_id: v.handoff.session_id ?? null,
          status: v.handoff.status ?? null,
          summary: v.handoff.summary ?? null,
          ...provenanceJson(provenance),
          own,
          visibility: v.visibility,
          readable: v.readable,
          ...(v.sealed ? { sealed: v.problems[0] } : {}),
        });
      }
      // A version someone else wrote says so beside its summary: the agent reads it as their words.
      const text = rows
        .map(
          (r) =>
            `${r.version.slice(0, 12)} ${r.date} ${r.sealed ? `(${r.sealed})` : r.valid ? `${r.status ?? '-'} ${(r.summary ?? '').split('\n')[0]}` : '(invalid note)'}${r.own ? '' : ` (not the current user's: ${r.author.name} <${r.author.email}>, ${r.origin ?? 'origin unknown'}, ${r.signature})`}`,
        )
        .join('\n');
      return { data: { ok: true, versions: rows }, text: text || 'no versions' };
    },
  },
  {
    name: 'handoff_diff',
    title: 'Compare two handoff versions',
    description:
      'What changed between two versions, field by field (default: the previous version against the latest), and which of them a rewrite (amend, rebase) moved to another commit: the same as `git handoff diff`.',
    inputSchema: obj({
      old: s('the older version (id, prefix or ~N; default ~1)'),
      new: s('the newer version (default: the latest)'),
      ...SELECTION,
      bookkeeping: b('also the fields the tool fills on every write (head, date, ...)'),
    }),
    readOnly: true,
    async run(repo, a) {
      const req = { old: str(a.old), new: str(a.new), branch: str(a.branch), all: a.all === true, checkBranch: false, bookkeeping: a.bookkeeping === true };
      const d = await diffVersions(repo, req);
      return { data: diffJson(d), text: await diffText(d) };
    },
  },
  {
    name: 'handoff_search',
    title: 'Search every handoff version',
    description:
      'Full-text search over every version on every branch (all fields, lists and unknown fields; English, Russian and Chinese). Every word must occur; newest first or by relevance; each hit names the field that matched.',
    inputSchema: obj(
      {
        query: s('the words to look for'),
        branch: s('only versions written on this branch'),
        since: s('only versions from this date (2026-01-31) or age (7d, 2 weeks) on'),
        limit: n('at most this many lines: a text several versions carry is one (default 20)'),
        order: s('newest (default) or relevance', { enum: ['newest', 'relevance'] }),
      },
      ['query'],
    ),
    readOnly: true,
    async run(repo, a) {
      const r = await searchHandoffs(repo, {
        query: a.query as string,
        branch: str(a.branch),
        since: str(a.since),
        limit: typeof a.limit === 'number' ? a.limit : undefined,
        order: a.order === 'relevance' ? 'relevance' : 'newest',
      });
      const data = {
        ok: true,
        query: r.query,
        order: r.order,
        searched: r.searched,
        skipped_invalid: r.skippedInvalid,
        ...(r.unreadable ? { unreadable: r.unreadable } : {}),
        more: r.more,
        results: r.hits,
      };
      const lines = groupHits(r.hits).map(
        (g) => `${g[0].version.slice(0, 12)} ${g[0].date} ${g[0].branch ?? '-'} ${g[0].field}: ${g[0].snippet}${groupNote(g)}`,
      );
      if (r.skippedInvalid) lines.push(`(${r.skippedInvalid} invalid notes skipped)`);
      if (r.unreadable) lines.push(`(${r.unreadable} encrypted version${r.unreadable === 1 ? '' : 's'} your key cannot read, not searched)`);
      return { data, text: lines.join('\n') || `no version matches (${r.searched} searched)` };
    },
  },
  {
    name: 'work_item_status',
    title: 'Work item status',
    description: 'Work items: state, handoff document validity, receipts. One item with `work_item`, else all.',
    inputSchema: obj({ work_item: s('github:<owner>/<repo>#<n> or local:#<n>') }),
    readOnly: true,
    async run(repo, a) {
      if (a.work_item !== undefined) {
        const { status, notice } = await itemStatus(repo, parseItemOption(str(a.work_item)));
        return {
          data: { ok: true, item: itemData(status), ...(notice ? { notice } : {}) },
          text: `${status.workItem}: ${status.state}${status.title ? ` - ${status.title}` : ''}`,
        };
      }
      const { statuses, notice } = await allStatuses(repo);
      return {
        data: { ok: true, items: statuses.map(itemData), ...(notice ? { notice } : {}) },
        text: statuses.map((x) => `${x.workItem}: ${x.state}${x.title ? ` - ${x.title}` : ''}`).join('\n') || 'no work items yet',
      };
    },
  },
  {
    name: 'work_item_seed',
    title: 'Seed prompt for a work item',
    description: "The next session's seed prompt for a work item, deterministic (writes nothing).",
    inputSchema: obj({ work_item: s('github:<owner>/<repo>#<n> or local:#<n>'), lang: s('language of the seed', { enum: ['en', 'zh', 'ru'] }) }, ['work_item']),
    readOnly: true,
    async run(repo, a) {
      const r = await seedFor(repo, parseItemOption(str(a.work_item)), { lang: str(a.lang) });
      return { data: { ok: true, workItem: r.workItem, seed: r.seed, ...(r.notice ? { notice: r.notice } : {}) }, text: r.seed };
    },
  },
];

/** The tools as `tools/list` gives them. */
export function listTools() {
  return TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', ...t.inputSchema },
    annotations: { title: t.title, readOnlyHint: t.readOnly, destructiveHint: false, idempotentHint: t.readOnly, openWorldHint: false },
  }));
}

export function isTool(name: string): boolean {
  return TOOLS.some((t) => t.name === name);
}

function errorResult(e: unknown): ToolResult {
  const known = isHandoffError(e);
  const code = known ? e.code : 'InternalError';
  const message = reportedMessage(e).split('\n')[0];
  return {
    content: [{ type: 'text', text: visibleText(`${code}: ${message}`) }],
    structuredContent: { ok: false, error: { code, message, ...(known && Object.keys(e.data).length ? { data: e.data } : {}) } },
    isError: true,
  };
}

/** Runs one tool against the repository at `dir`; never throws: every failure is a tool error. */
export async function callTool(dir: string, name: string, args: unknown, session: McpSession = { shown: null }): Promise<ToolResult> {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) return errorResult(new UsageError(`no tool named ${JSON.stringify(name)}; the tools are ${TOOLS.map((t) => t.name).join(', ')}`));
  try {
    const a = checkArgs(tool.name, tool.inputSchema, args ?? {});
    const { data, text } = await withRepo(dir, (repo) => tool.run(repo, a, session));
    // The text is what the model reads: shown visibly; the structured content keeps the exact text.
    return { content: [{ type: 'text', text: visibleText(text) }], structuredContent: data };
  } catch (e) {
    return errorResult(e);
  }
}

export const LATEST_URI = 'handoff://latest';
export const LATEST_BOOKMARK_URI = 'handoff://latest/bookmark';

export function listResources() {
  return [
    {
      uri: LATEST_URI,
      name: 'latest-handoff',
      title: 'Latest handoff of the current branch',
      description: 'the stored note (canonical YAML) of the latest version on the current branch',
      mimeType: 'application/yaml',
    },
    {
      uri: LATEST_BOOKMARK_URI,
      name: 'latest-handoff-bookmark',
      title: 'Bookmark of the latest handoff',
      description: 'the 15-30 line bookmark `git handoff show` prints',
      mimeType: 'text/plain',
    },
  ];
}

/** The resource's contents; null for an unknown URI. */
export async function readResource(dir: string, uri: string): Promise<{ uri: string; mimeType: string; text: string }[] | null> {
  if (uri !== LATEST_URI && uri !== LATEST_BOOKMARK_URI) return null;
  const r = await withRepo(dir, (repo) => showHandoff(repo, {}));
  if (uri === LATEST_BOOKMARK_URI) return [{ uri, mimeType: 'text/plain', text: visibleText(bookmarkOf(r)) }];
  return [{ uri, mimeType: 'application/yaml', text: visibleText(r.version?.text ?? '') }];
}
