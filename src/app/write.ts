/**
 * `write`: gather (input, HEAD, latest version) -> decide (validate, scan, fill, compare)
 * -> act (one version commit, compare-and-swap). `--dry-run` stops before act.
 */
import { sessionIdFromEnv } from '../agents/index.js';
import type { Repo, WriteHelper } from '../git/repo.js';
import { HandoffStore, type ReadVersion } from '../git/handoff-store.js';
import { VersionReader, type Latest } from '../history/reader.js';
import { joinHeads, lineageTrailers } from '../core/lineage.js';
import { headFacts, patchIdDiffArgs, contentHashes, type HeadFacts } from '../git/head-facts.js';
import { resolveIdentities, isoUtc } from '../git/identity.js';
import { setNote } from '../git/notes-tree.js';
import { parseTrailers } from '../git/objects.js';
import { normalizeInput, withDefaults, userContent, type Handoff } from '../core/schema.js';
import { toCanonicalYaml } from '../core/canonical.js';
import { parseDocument, ParseError } from '../core/parse.js';
import { decodeText, DEFAULT_MAX_BYTES } from '../core/bytes.js';
import { scanFields, maskSecrets, compileAllow } from '../core/secret-fields.js';
import { describeSecrets, inputLines } from '../core/secret-report.js';
import { describeWriteChanges, type WriteChanges } from '../core/write-changes.js';
import { findUnknownFields, unknownFieldMessage } from '../core/unknown-fields.js';
import { sessionForWrite } from '../core/agent-session.js';
import { readSession, readSessions, writeSession } from '../state/session-store.js';
import { readTaskBoard } from './mid-task.js';
import { InvalidHandoff, InvalidInput, SecretDetected, UnbornBranch, UnreadableHead } from '../errors.js';
import { requireWorkTree } from './repository.js';
import { applyFlags, isObj, mergeDocument, patchSettings, quoteList, type Obj, type WriteFlags } from './write-patch.js';
import { encryptArmored, VISIBILITIES, type Visibility } from '../core/age.js';
import { privateRecipients } from '../git/note-keys.js';
import { rememberReaders, teamReaders, teamWriteNotes } from './team-readers.js';
import { recordScannedAtWrite } from './outgoing-secrets.js';

export { LIST_FIELDS, type ListField, type WriteFlags } from './write-patch.js';

export interface WriteRequest {
  /** raw bytes of stdin or --file; null when none was given */
  input: Buffer | null;
  inputName: string;
  flags: WriteFlags;
  dryRun: boolean;
  /** the input document is merged onto the latest version (like flags) instead of replacing it */
  patch?: boolean;
  /** refuse unknown fields instead of warning (also `handoff.strict=true`) */
  strict?: boolean;
  /** extra trailers (e.g. relay marks) */
  trailers?: Record<string, string>;
  /** a person typed this at a terminal: no agent session's record lends it its id */
  terminal?: boolean;
  /** the version the writing session was shown (its start, MCP `handoff_show`): a whole document continues it */
  shown?: string | null;
  /** `--continue A,B`: the versions this write joins (their lists merged into the first one's document) */
  continues?: string[];
  /** who may read the version (docs/privacy.md); default `handoff.visibility`, else shared */
  visibility?: Visibility;
}

export interface WriteResult {
  version: string | null;
  target: string;
  unchanged: boolean;
  dryRun: boolean;
  handoff: Handoff;
  yaml: string;
  previous: string | null;
  /** what this write changed against the previous version of the branch */
  changes: WriteChanges;
  /** one line each, for stderr: unknown fields, what a list replacement dropped */
  warnings: string[];
  visibility: Visibility;
  /** how many public keys the note is encrypted to (0 for a shared one) */
  recipients: number;
}

function refuseProblems(problems: { field: string; message: string }[]): never {
  const [first] = problems;
  const more =
    problems.length > 1
      ? ` (and ${problems.length - 1} more: ${problems
          .slice(1)
          .map((p) => p.field)
          .join(', ')})`
      : '';
  throw new InvalidHandoff(`invalid handoff: ${first.field} ${first.message}${more}`, {
    problems: problems.map((p) => ({ field: p.field, message: p.message })),
  });
}

export async function writeHandoff(repo: Repo, req: WriteRequest): Promise<WriteResult> {
  requireWorkTree(repo, 'write');
  const store = new HandoffStore(repo);
  const facts = await headFacts(repo);
  if (!facts) throw new UnbornBranch(`branch '${repo.headBranch() ?? 'HEAD'}' has no commit yet; commit once, then write a handoff`);
  // Started now, used at the end: git's start-up overlaps the work below.
  const helper = repo.startWriteHelper(patchIdDiffArgs(facts.head, facts.commit), req.dryRun ? null : 'handoff: version');
  try {
    return await writeWith(repo, store, facts, req, helper);
  } finally {
    helper.cancel();
  }
}

async function writeWith(repo: Repo, store: HandoffStore, facts: HeadFacts, req: WriteRequest, helper: WriteHelper): Promise<WriteResult> {
  const refUpdate = req.dryRun ? undefined : helper;
  // Started now, awaited later: the patch-id pipeline is the slowest part of a write.
  const pending = Promise.all([helper.patchId(), contentHashes(repo)]);
  pending.catch(() => {});
  const [maxBytes, allowList] = await Promise.all([repo.configInt('handoff.maxBytes', DEFAULT_MAX_BYTES), repo.configAll('handoff.secrets.allow')]);
  const allow = compileAllow(allowList);
  const reader = new VersionReader(repo);
  const sel = { branch: facts.branch };

  // Gather: the input document (read once), the versions it continues, and the heads.
  const warnings: string[] = [];
  const input = req.input ? await readInput(repo, req, maxBytes, warnings) : null;
  // A patch (flags alone, --patch) continues the head at the moment of the compare-and-swap;
  // a whole document continues what its session was shown (docs/format.md "Lineage").
  const isPatch = !input || req.patch === true;
  const joined = req.continues?.length ? await Promise.all(req.continues.map((n) => reader.resolve(n, { all: true }))) : null;
  const ids = await resolveIdentities(repo);
  const named = req.flags.session ?? input?.session ?? sessionIdFromEnv(process.env);
  const session = named ?? (req.terminal ? undefined : sessionForWrite(readSessions(repo.gitDir), isoUtc(ids.committer.timestamp))?.session_id);
  // Only a session that says who it is continues what it was shown: a live agent beside a
  // person's own write does not lend it its bookmark.
  const record = named ? readSession(repo.gitDir, named) : null;
  const shownId = req.shown ?? (typeof record?.shown_version === 'string' ? record.shown_version : null);
  const shown = !isPatch && !joined && shownId ? await reader.byId(shownId) : null;
  const [pid, hashes] = await pending;
  // Who may read it: the recipients are known (or refused) before anything is written, dry run too.
  let plannedAt = await store.tip();
  let latest = await reader.latest(sel, plannedAt);
  // Unless told, a version made from an encrypted one (a patch of it, a join, a whole
  // document by the session that was shown it) stays as closed: what it carries is its
  // readers' text (the line that names the write says so). Else handoff.visibility, else shared.
  const continued = joined?.[0] ?? shown ?? (isPatch ? latest.version : null);
  const inherited = !req.visibility && continued && continued.visibility !== 'shared' ? continued.visibility : null;
  const visibility = req.visibility ?? inherited ?? (await configuredVisibility(repo));
  // A team's readers are those at HEAD, once in effect here (docs/privacy.md "When the readers change").
  const team = visibility === 'team' ? await teamReaders(repo, facts.branch) : null;
  if (team) warnings.push(...teamWriteNotes(team));
  const recipients = team ? team.readers.map((r) => r.key) : visibility === 'private' ? await privateRecipients(repo) : [];
  const sealed = { visibility, recipients: recipients.length };
  // what a write (or its dry run, version null) reports of the version it planned
  const written = (p: typeof planned, version: string | null): WriteResult => ({
    version,
    target: facts.head,
    unchanged: false,
    dryRun: version === null,
    handoff: p.handoff,
    yaml: p.yaml,
    previous: p.prev?.id ?? null,
    changes: p.changes,
    warnings: p.warnings,
    ...sealed,
  });

  const plan = async (latest: Latest): Promise<Plan> => {
    const bases = joined ?? (shown ? [shown] : latest.version ? [latest.version] : []);
    const { handoff: from, leftOut } = joined
      ? joinHeads(
          joined[0].handoff,
          joined.slice(1).map((j) => j.handoff),
        )
      : { handoff: bases[0]?.handoff, leftOut: [] };
    // A head this user cannot decrypt: a patch has nothing to apply to; a whole document continues it.
    const unreadable = latest.skipped.filter((s) => s.sealed);
    if (isPatch && !joined && unreadable.length) throw unreadableHead(unreadable[0]);
    const notes = [...warnings];
    if (leftOut.length)
      notes.push(
        `--continue: ${leftOut.length} pending question${leftOut.length === 1 ? '' : 's'} did not fit in the 3 allowed and ${leftOut.length === 1 ? 'was' : 'were'} left out: ${quoteList(leftOut)}`,
      );
    const carried = from ? (userContent(from) as Obj) : {};
    // session_id names the session that wrote this version: never inherited.
    delete carried.session_id;
    let base: Obj = input ? (req.patch || joined ? mergeDocument(carried, input.given) : input.given) : carried;
    base = { ...base };
    if (session) base.session_id = session;
    else delete base.session_id;
    // Decide: patch with flags, validate again, scan what the user gave.
    let patched = applyFlags(base, req.flags, notes);
    if (!input?.setsMidTask) patched = await withMidTask(repo, patched);
    const { handoff: checked, problems } = normalizeInput(patched);
    if (problems.length) refuseProblems(problems);
    const user = userContent(checked);
    const secrets = scanFields(user, allow);
    if (secrets.length) {
      const r = describeSecrets(secrets, inputLines(input?.text ?? null, secrets), input ? req.inputName : null);
      throw new SecretDetected(r.message, r.data);
    }
    const handoff = withDefaults({
      ...user,
      date: isoUtc(ids.committer.timestamp),
      branch: facts.branch,
      head: facts.head,
      head_tree: facts.headTree,
      head_patch_id: pid,
      // Tool-filled text is masked rather than blocking: a commit subject may leak, and the commit is already made.
      recent_commits: facts.recent.map(([id, subject]) => `${id}: ${maskSecrets(subject, allow)}`),
      content_hashes: hashes,
    } as Handoff);
    const yaml = toCanonicalYaml(handoff as Obj);
    if (Buffer.byteLength(yaml) > maxBytes)
      throw new InvalidInput(`the handoff would be ${Buffer.byteLength(yaml)} bytes, over the ${maxBytes}-byte limit (handoff.maxBytes)`);
    const prev: ReadVersion | null = bases[0] ?? null;
    const changes: WriteChanges = describeWriteChanges(prev, handoff);
    if (prev && latest.fallback) changes.previous_branch = prev.branch ?? null;
    const heads = [...(latest.version ? [latest.version] : []), ...latest.diverged];
    // Unchanged: the same content on the same commit as the one head it would continue.
    const unchanged =
      !joined &&
      !unreadable.length &&
      prev &&
      heads.length === 1 &&
      prev.id === heads[0].id &&
      prev.target === facts.head &&
      prev.visibility === visibility &&
      sameContent(prev.handoff, handoff) &&
      carriesTrailers(prev, req.trailers);
    const lineage = lineageTrailers(
      [...new Set([...bases, ...unreadable].map((v) => v.id))],
      heads.map((v) => v.id),
    );
    return { handoff, yaml, prev, changes, unchanged: Boolean(unchanged), lineage, warnings: notes };
  };

  let planned = await plan(latest);
  const unchangedResult = (p: Plan): WriteResult => ({
    version: p.prev!.id,
    target: facts.head,
    unchanged: true,
    dryRun: req.dryRun,
    handoff: p.prev!.handoff,
    yaml: p.prev!.text ?? p.yaml,
    previous: p.prev!.id,
    changes: p.changes,
    warnings: p.warnings,
    ...sealed,
  });
  if (planned.unchanged) return unchangedResult(planned);
  if (req.dryRun) {
    return written(planned, null);
  }

  // Act: one blob, the touched notes subtrees, one commit, compare-and-swap. When another
  // writer moved the tip first, the plan is made again on the new tip: a patch re-applied
  // to the head it now continues, a whole document with the heads it now leaves open.
  const version = await store.commitBuilt(
    'version',
    async (root, tip) => {
      if (tip !== plannedAt) {
        latest = await reader.latest(sel, tip);
        planned = await plan(latest);
        plannedAt = tip;
      }
      if (planned.unchanged) return null;
      // The secret scan read the plaintext; an encrypted note is stored as an armoured age file only.
      const stored = recipients.length ? await encryptArmored(planned.yaml, recipients) : planned.yaml;
      const blob = await repo.objects.write('blob', Buffer.from(stored, 'utf8'));
      return {
        tree: await setNote(repo.objects, root, facts.head, blob),
        subject: recipients.length ? subjectOf(facts, null) : subjectOf(facts, planned.handoff),
        trailers: {
          'Handoff-Target': facts.head,
          ...(facts.branch ? { 'Handoff-Branch': facts.branch } : {}),
          ...(recipients.length ? { 'Handoff-Visibility': visibility } : {}),
          ...planned.lineage,
          ...req.trailers,
        },
      };
    },
    ids,
    { pending: refUpdate },
  );
  if (!version) return unchangedResult(planned);
  if (team) rememberReaders(repo, team);
  // Its plaintext was scanned above: the push's scan, which cannot read it, is told so.
  if (recipients.length) await recordScannedAtWrite(repo, version);
  // The session goes on from what it wrote: its next whole document continues this version.
  if (record) writeSession(repo.gitDir, { ...record, shown_version: version });
  return written(planned, version);
}

function unreadableHead(v: ReadVersion): UnreadableHead {
  return new UnreadableHead(
    `the latest version ${v.id.slice(0, 12)} is encrypted (${v.visibility}) and your key cannot read it, so a patch write (flags alone, --add-*, --patch) has nothing to apply to: write a whole document (stdin or --file), which continues it, or ask one of its readers (nothing was written)`,
  );
}

/** `handoff.visibility`: shared (the default), team or private; another value is refused naming the three. */
async function configuredVisibility(repo: Repo): Promise<Visibility> {
  const v = (await repo.configGet('handoff.visibility'))?.trim().toLowerCase();
  if (v === undefined || v === '') return 'shared';
  if (!(VISIBILITIES as readonly string[]).includes(v)) throw new InvalidInput(`handoff.visibility '${v}' is not shared, team or private`);
  return v as Visibility;
}

/** What a write would append, decided on one tip of the history. */
interface Plan {
  handoff: Handoff;
  yaml: string;
  /** the version it continues first (what `changes` compares with) */
  prev: ReadVersion | null;
  changes: WriteChanges;
  unchanged: boolean;
  /** the lineage trailers */
  lineage: Record<string, string>;
  warnings: string[];
}

/** The commit subject, for people: the commit, the branch, the summary's first line (`(encrypted)` for an encrypted version: null). */
function subjectOf(facts: HeadFacts, handoff: Handoff | null): string {
  if (!handoff) return `handoff ${facts.head.slice(0, 7)}${facts.branch ? ` on ${facts.branch}` : ''}: (encrypted)`;
  // Control characters (a YAML "\0" escape) are fine in the note but not in a commit
  // message: git fsck --strict rejects a NUL there.
  const summaryLine = (handoff.summary ?? '')
    .split('\n')[0]
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .trim();
  return `handoff ${facts.head.slice(0, 7)}${facts.branch ? ` on ${facts.branch}` : ''}: ${summaryLine.length > 60 ? `${summaryLine.slice(0, 59)}…` : summaryLine || handoff.status}`;
}

/** The input document, decoded, parsed and checked once (its unknown fields warned about once). */
async function readInput(
  repo: Repo,
  req: WriteRequest,
  maxBytes: number,
  warnings: string[],
): Promise<{ text: string; given: Obj; session: string | undefined; setsMidTask: boolean }> {
  const decoded = decodeText(req.input!, maxBytes);
  if ('problem' in decoded) throw new InvalidInput(decoded.problem.message.replace(/^input/, req.inputName));
  let doc: unknown;
  try {
    doc = await parseDocument(decoded.text);
  } catch (e) {
    if (e instanceof ParseError) throw new InvalidHandoff(`${req.inputName}: ${e.message}`, { line: e.line });
    throw e;
  }
  const { handoff, problems } = normalizeInput(doc);
  if (problems.length) refuseProblems(problems);
  await checkUnknownFields(repo, req.patch && isObj(doc) ? patchSettings(doc) : (doc as Obj), req, warnings);
  const given = userContent(handoff) as Obj;
  const session = typeof given.session_id === 'string' && given.session_id ? given.session_id : undefined;
  return { text: decoded.text, given, session, setsMidTask: isObj(doc) && 'mid_task' in doc };
}

/** Unknown fields of the input: a warning each, or with `--strict` / `handoff.strict` a refusal. */
async function checkUnknownFields(repo: Repo, doc: Obj, req: WriteRequest, warnings: string[]): Promise<void> {
  const unknown = findUnknownFields(doc);
  if (!unknown.length) return;
  if (req.strict || (await repo.configBool('handoff.strict', false))) {
    const more =
      unknown.length > 1
        ? ` (and ${unknown.length - 1} more: ${unknown
            .slice(1)
            .map((u) => u.path)
            .join(', ')})`
        : '';
    throw new InvalidHandoff(
      `${req.inputName}: ${unknownFieldMessage(unknown[0])}${more}; strict mode (--strict or handoff.strict) refuses unknown fields; nothing was written`,
      {
        unknown: unknown.map((u) => ({ field: u.path, suggestion: u.suggestion })),
      },
    );
  }
  for (const u of unknown) if (u.suggestion) warnings.push(unknownFieldMessage(u));
}

/**
 * Mid-task capture: unless the input sets `mid_task`, the active task of the
 * task board fills it; a board with no active task clears one carried forward; no board
 * leaves what there is.
 */
async function withMidTask(repo: Repo, h: Obj): Promise<Obj> {
  const board = await readTaskBoard(repo);
  if (board.task) return { ...h, mid_task: board.task };
  if (board.exists && 'mid_task' in h) {
    const { mid_task: _dropped, ...rest } = h;
    return rest;
  }
  return h;
}

/** A version that lacks a requested mark (a relay) is not "unchanged" even with the same content. */
function carriesTrailers(prev: ReadVersion, trailers: Record<string, string> | undefined): boolean {
  if (!trailers) return true;
  const have = parseTrailers(prev.commit.message);
  return Object.entries(trailers).every(([k, v]) => have[k] === v);
}

function sameContent(a: Handoff, b: Handoff): boolean {
  return toCanonicalYaml(withDefaults(userContent(a)) as Obj) === toCanonicalYaml(withDefaults(userContent(b)) as Obj);
}
