import type { CommandModule } from './types.js';
import { DRY_RUN_OPTION, JSON_OPTION, list, str } from './types.js';
import { withRepo } from '../app/repository.js';
import type { ListField, WriteResult } from '../app/write.js';
import { writeWithRelayMark } from '../app/relay-mark.js';
import { readInputFile, readStdin } from '../cli/io.js';
import { usageLine } from '../cli/spec.js';
import { InvalidInput, UsageError } from '../errors.js';

const LIST_FLAG_FIELDS: Record<string, ListField> = {
  guard: 'guards',
  'pending-question': 'cursor.pending_questions',
  'ask-user': 'ask_user',
  note: 'soft_context.notes',
  'memory-update': 'memory_updates',
  'continuation-ref': 'continuation_refs',
};

function listFlags(v: Record<string, unknown>, op: 'add' | 'remove'): Partial<Record<ListField, string[]>> {
  const out: Partial<Record<ListField, string[]>> = {};
  for (const [flag, field] of Object.entries(LIST_FLAG_FIELDS)) {
    const items = list(v[`${op}-${flag}`]);
    if (items?.length) out[field] = items;
  }
  return out;
}

/** Options that say how to write, not what: given alone with no input, there is nothing to write. */
/** How a written version is sealed, for the line that names it. */
const sealedLine = (r: WriteResult) =>
  r.visibility === 'shared' ? '' : `, ${r.visibility}: encrypted for ${r.recipients} reader${r.recipients === 1 ? '' : 's'}`;

const HOW_NOT_WHAT = new Set(['file', 'patch', 'strict', 'dry-run', 'json', 'help', 'private', 'team', 'shared']);

/** The one line under "wrote version": what changed against the version before. */
function changeLine(r: WriteResult): string {
  const c = r.changes;
  const other =
    c.previous_branch !== undefined
      ? `, the newest version of ${c.previous_branch ?? 'a detached HEAD'}: the first on ${r.handoff.branch ?? 'this detached HEAD'}`
      : '';
  const against = c.previous ? ` (against ${c.previous.slice(0, 12)}${other})` : '';
  return `${r.changes.line}${against}`;
}

export const command: CommandModule = {
  spec: {
    name: 'write',
    summary: 'append a new handoff version (YAML or JSON on stdin or --file, and flags)',
    description:
      "The whole handoff comes from stdin (when it is not a terminal) or --file; flags override its fields. With --patch the document's fields are merged onto the latest version instead, like flags, and a field set to null is removed. With flags alone the latest version is carried forward and patched. A list flag without add/remove (--guard, --pending-question, --ask-user, --note, --memory-update, --continuation-ref) REPLACES the whole list and says what it dropped; --add-X adds one item, --remove-X removes one. Every write prints one line saying what changed against the previous version. Content identical to the latest version on the same commit appends nothing. Unknown fields are kept and warned about (--strict or handoff.strict=true refuses them). A secret in the input refuses the write.",
    options: {
      file: { type: 'string', short: 'f', arg: 'path', describe: "read the handoff from a file ('-' for stdin)" },
      status: { type: 'string', arg: 'active|paused|done', describe: 'set status' },
      summary: { type: 'string', arg: 'text', describe: 'set summary' },
      session: { type: 'string', arg: 'id', describe: 'set session_id (default: $HANDOFF_SESSION_ID)' },
      'last-discussed': { type: 'string', arg: 'text', describe: 'set cursor.last_discussed' },
      'pending-question': { type: 'string', multiple: true, arg: 'text', describe: 'replace cursor.pending_questions with these (repeat, at most 3)' },
      'add-pending-question': { type: 'string', multiple: true, arg: 'text', describe: 'add one to cursor.pending_questions (repeat)' },
      'remove-pending-question': {
        type: 'string',
        multiple: true,
        arg: 'text',
        describe: 'remove this one from cursor.pending_questions (exact text; repeat)',
      },
      'next-step': { type: 'string', arg: 'text', describe: 'set cursor.next_step' },
      tone: { type: 'string', arg: 'text', describe: 'set soft_context.tone' },
      note: { type: 'string', multiple: true, arg: 'text', describe: 'replace soft_context.notes with these (repeat)' },
      'add-note': { type: 'string', multiple: true, arg: 'text', describe: 'add one to soft_context.notes (repeat)' },
      'remove-note': { type: 'string', multiple: true, arg: 'text', describe: 'remove this one from soft_context.notes (exact text; repeat)' },
      guard: { type: 'string', multiple: true, arg: 'text', describe: 'replace guards with these (repeat)' },
      'add-guard': { type: 'string', multiple: true, arg: 'text', describe: 'add one guard (repeat)' },
      'remove-guard': { type: 'string', multiple: true, arg: 'text', describe: 'remove this guard (exact text; repeat)' },
      'ask-user': { type: 'string', multiple: true, arg: 'text', describe: 'replace ask_user with these (repeat)' },
      'add-ask-user': { type: 'string', multiple: true, arg: 'text', describe: 'add one to ask_user (repeat)' },
      'remove-ask-user': { type: 'string', multiple: true, arg: 'text', describe: 'remove this one from ask_user (exact text; repeat)' },
      'memory-update': { type: 'string', multiple: true, arg: 'text', describe: 'replace memory_updates with these (repeat)' },
      'add-memory-update': { type: 'string', multiple: true, arg: 'text', describe: 'add one to memory_updates (repeat)' },
      'remove-memory-update': { type: 'string', multiple: true, arg: 'text', describe: 'remove this one from memory_updates (exact text; repeat)' },
      'continuation-ref': { type: 'string', multiple: true, arg: 'path', describe: 'replace continuation_refs with these (repeat)' },
      'add-continuation-ref': { type: 'string', multiple: true, arg: 'path', describe: 'add one to continuation_refs (repeat)' },
      'remove-continuation-ref': { type: 'string', multiple: true, arg: 'path', describe: 'remove this one from continuation_refs (exact text; repeat)' },
      'work-item': { type: 'string', arg: 'item', describe: 'set work_item (github:owner/repo#N or local:#N)' },
      produced: { type: 'string', multiple: true, arg: 'path', describe: 'a document the fidelity sweep produced (repeat); fills consolidation' },
      patch: { type: 'boolean', describe: "merge the document's fields onto the latest version instead of replacing the whole handoff (null removes a field)" },
      strict: { type: 'boolean', describe: 'refuse unknown fields instead of warning (also handoff.strict=true)' },
      relay: { type: 'boolean', describe: "mark this version as handing over to a new session ('git handoff relay')" },
      private: { type: 'boolean', describe: 'encrypt with age to your own public keys (your identity and handoff.recipient); docs/privacy.md' },
      team: { type: 'boolean', describe: 'encrypt with age to the readers in .handoff-recipients as committed at HEAD' },
      shared: { type: 'boolean', describe: 'store it in the clear, readable by everyone who can fetch (the default unless handoff.visibility says otherwise)' },
      continue: {
        type: 'string',
        arg: 'A,B',
        describe:
          "join diverged sessions: this version continues the versions named (ids, prefixes or ~N, comma-separated), starting from the first one's handoff with every ask_user item, pending question, guard and note of the others added",
      },
      'dry-run': DRY_RUN_OPTION,
      json: JSON_OPTION,
    },
    examples: [
      "git handoff write --summary 'parser done; tests next' --next-step 'write the e2e tests'",
      'git handoff write --continue 1a2b3c4d,5e6f7a8b --summary "joined both sessions"',
      "git handoff write --add-guard 'no new dependencies' --remove-pending-question 'Which parser?'",
      'git handoff write < handoff.yaml',
      "echo 'summary: tests pass' | git handoff write --patch",
    ],
  },

  async run(args, ctx) {
    const v = args.values;
    const file = str(v.file);
    let input: Buffer | null = null;
    let inputName = 'stdin';
    if (file !== undefined && file !== '-') {
      inputName = file;
      input = readInputFile(ctx.cwd, file);
      if (input.length === 0) throw new InvalidInput(`${file} is empty`);
    } else {
      input = await readStdin(ctx.io);
      if (file === '-' && !input) throw new UsageError('write: --file - given but stdin is empty');
    }
    // an empty write would append a version whose only change is its session id
    const nothing = !input && Object.keys(v).every((k) => HOW_NOT_WHAT.has(k));
    const chosen = (['private', 'team', 'shared'] as const).filter((k) => v[k]);
    if (chosen.length > 1) throw new UsageError(`write: --${chosen[0]} and --${chosen[1]} cannot go together (a version has one visibility)`);
    const request = {
      visibility: chosen[0],
      terminal: ctx.io.stdinIsTTY,
      input,
      inputName,
      dryRun: Boolean(v['dry-run']),
      patch: Boolean(v.patch),
      strict: Boolean(v.strict),
      continues: continueNames(str(v.continue)),
      flags: {
        status: str(v.status),
        summary: str(v.summary),
        session: str(v.session),
        lastDiscussed: str(v['last-discussed']),
        pendingQuestions: list(v['pending-question']),
        nextStep: str(v['next-step']),
        tone: str(v.tone),
        guards: list(v.guard),
        askUser: list(v['ask-user']),
        notes: list(v.note),
        memoryUpdates: list(v['memory-update']),
        continuationRefs: list(v['continuation-ref']),
        addItems: listFlags(v, 'add'),
        removeItems: listFlags(v, 'remove'),
        workItem: str(v['work-item']),
        produced: list(v.produced),
      },
    };
    const r = await withRepo(ctx.cwd, (repo) => {
      if (nothing) {
        if (!ctx.json) ctx.io.err([`usage: ${usageLine(command.spec)}`, ...(command.spec.examples ?? []).map((e) => `   or: ${e}`)].join('\n'));
        throw new UsageError('write: nothing to write: give the handoff on stdin or with --file, or set fields with flags; nothing was written');
      }
      return writeWithRelayMark(repo, request, Boolean(v.relay));
    });
    for (const w of r.warnings) ctx.io.err(`git handoff: warning: ${w}`);
    if (ctx.json) {
      ctx.io.json({
        ok: true,
        version: r.version,
        target: r.target,
        unchanged: r.unchanged,
        visibility: r.visibility,
        ...(r.dryRun ? { dry_run: true } : {}),
        ...(r.relay ? { relay: r.relay } : {}),
        changes: r.changes,
        ...(r.warnings.length ? { warnings: r.warnings } : {}),
        handoff: r.handoff,
      });
    } else if (r.unchanged) {
      ctx.io.out(`unchanged: version ${r.version!.slice(0, 12)} already holds this handoff for ${r.target.slice(0, 7)}\n`);
    } else if (r.dryRun) {
      ctx.io.out(`dry run: would append a version for ${r.target.slice(0, 7)}${r.handoff.branch ? ` on ${r.handoff.branch}` : ''} with this note:\n${r.yaml}`);
      ctx.io.out(`${changeLine(r)}\n`);
    } else {
      ctx.io.out(
        `wrote version ${r.version!.slice(0, 12)} for ${r.target.slice(0, 7)}${r.handoff.branch ? ` on ${r.handoff.branch}` : ' (detached HEAD)'}${sealedLine(r)}${r.relay ? '; it asks for a relay' : ''}\n`,
      );
      ctx.io.out(`${changeLine(r)}\n`);
    }
  },
};

/** `--continue A,B`: the version names, each once, in the order given. */
function continueNames(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const names = [...new Set(value.split(',').map((n) => n.trim()))];
  if (!names.length || names.some((n) => !n)) throw new UsageError(`write: --continue takes version names separated by commas (got '${value}')`);
  return names;
}
