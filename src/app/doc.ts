/**
 * `doc`: two phases (docs/work-items.md). Without `docs/HANDOFF-<n>.md`, render the
 * template skeleton there and change nothing else. With it: validate, write the receipt,
 * update the provider, rewrite the SEED section. Validation and the local receipt are
 * all-or-nothing; the provider steps after them resume on a re-run with the same receipt.
 */
import { shellCommand } from '../core/shell-word.js';
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import type { Repo } from '../git/repo.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { decideTransition } from '../core/item-states.js';
import { handoffDocPath, type ItemRecord, type ItemState, type WorkItemRef } from '../core/work-item.js';
import { handoffReceiptId, type Receipt } from '../core/receipt.js';
import {
  citedReceipts,
  describeProblems,
  handoffDocHash,
  renderTemplate,
  replaceSeed,
  validateHandoffDoc,
  type DocFacts,
  type DocProblem,
  type Lang,
} from '../core/handoff-doc.js';
import { decodeText, DEFAULT_MAX_BYTES } from '../core/bytes.js';
import { openItem, receiptTime, refuseSecrets, resolveLang, resolveSession, syncProvider, type ItemContext, type TransitionResult } from './work-items.js';
import { buildSeed } from './seed.js';
import { onlyHeadMoved } from '../core/seed-prompt.js';
import { legacyReceiptIds } from './legacy-receipts.js';
import { InvalidInput, isHandoffError, UnsafePath, TemplateMissing, TransitionRefused, UsageError, ValidationFailed, WorkItemConflict } from '../errors.js';
import { insidePath, readRegularFile, readWorkTreeFile } from '../state/bounded-file.js';

export interface DocRequest {
  ref: WorkItemRef;
  session?: string;
  toStatus?: string;
  lang?: string;
  dryRun: boolean;
}

export type DocResult =
  | { phase: 'skeleton'; workItem: string; path: string; dryRun: boolean; text: string }
  | (TransitionResult & { phase: 'handoff'; path: string; seedWritten: boolean });

/** Where this code runs from: the bundle's folder (`dist/`), else the running script's. */
function codeDir(): string {
  // The CLI ships as CommonJS bundles, where `__dirname` exists; `import.meta` does not.
  if (typeof __dirname === 'string') return __dirname;
  return dirname(realpathSync(process.argv[1] ?? '.'));
}

/** The shipped templates: `templates/` beside `dist/` in the package (or the source tree). */
export function shippedTemplate(lang: Lang): string {
  let dir = codeDir();
  for (let i = 0; i < 5; i++) {
    const p = join(dir, 'templates', `handoff.${lang}.md`);
    if (existsSync(p)) return readFileSync(p, 'utf8');
    dir = dirname(dir);
  }
  throw new TemplateMissing(`the shipped template templates/handoff.${lang}.md is missing from the installation`);
}

function templateText(ctx: ItemContext, lang: Lang): string {
  const custom = ctx.policy.effective.template;
  if (!custom) return shippedTemplate(lang);
  try {
    const bytes = readWorkTreeFile(ctx.workTree, custom);
    if (bytes === null) throw new Error('absent');
    return bytes.toString('utf8');
  } catch {
    throw new TemplateMissing(`the policy's template ${custom} cannot be read`);
  }
}

/** What validation needs from the work tree and the notes. */
export async function docFacts(ctx: ItemContext, docPath: string): Promise<DocFacts> {
  const root = ctx.workTree;
  const rootFolders = new Set(
    readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== '.git')
      .map((e) => e.name),
  );
  const inNotes = await ctx.items.receiptIds();
  let legacy: Set<string> | null = null;
  return {
    docDir: posix.dirname(docPath),
    rootFolders,
    pathExists: (p) => existsSync(join(root, p)),
    receiptExists: (id) => inNotes.has(id) || (legacy ??= legacyReceiptIds(root)).has(id),
  };
}

/** Reads the document as text, refusing what cannot be one (size, binary, UTF-8). */
export function readDoc(abs: string, shown: string): string {
  let bytes: Buffer;
  try {
    const read = readRegularFile(abs, shown);
    if (read === null) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
    bytes = read;
  } catch (e) {
    // a folder, a FIFO or a device where the document should be: said as any unreadable document is
    if (isHandoffError(e, UnsafePath) && typeof e.data.why === 'string') throw new InvalidInput(`cannot read ${shown}: ${e.data.why}`);
    if (isHandoffError(e)) throw e;
    throw fsRefusal('read', shown, e);
  }
  const decoded = decodeText(bytes, DEFAULT_MAX_BYTES);
  if ('problem' in decoded) throw new InvalidInput(`${shown}: ${decoded.problem.message.replace(/^input/, 'the document')}`);
  // Hash and rewrite the bytes as they are (line endings and a byte-order mark kept): the hash is git's, and only SEED is ours to change.
  return bytes.toString('utf8');
}

const FS_REASONS: Record<string, string> = {
  EISDIR: 'it is a folder',
  ENOTDIR: 'a file stands where a folder of its path should be',
  EEXIST: 'a file stands where a folder of its path should be',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
};

/** A document that cannot be read or written is the user's to fix: one line, exit 1, not an internal error. */
function fsRefusal(action: 'read' | 'write', shown: string, e: unknown): InvalidInput {
  const code = (e as NodeJS.ErrnoException).code ?? '';
  return new InvalidInput(`cannot ${action} ${shown}: ${FS_REASONS[code] ?? (e as Error).message}`, { path: shown });
}

/** Writes through a temporary file and a rename (../state/atomic-write.ts), so the document is whole or untouched; no temporary file is left behind. */
function writeAtomically(abs: string, text: string, shown: string): void {
  try {
    writeFileAtomic(abs, text, existsSync(abs) ? { mode: statSync(abs).mode & 0o7777 } : {});
  } catch (e) {
    throw fsRefusal('write', shown, e);
  }
}

export async function docItem(repo: Repo, req: DocRequest): Promise<DocResult> {
  const target = (req.toStatus ?? 'in-progress') as ItemState;
  if (target !== 'in-progress' && target !== 'ready-for-review')
    throw new UsageError(`--to-status must be in-progress or ready-for-review, not ${req.toStatus}`);
  const ctx = await openItem(repo, req.ref, { write: true });
  const { ref } = ctx;
  const session = resolveSession(repo, req.session);
  if (!session) throw new UsageError('doc: --session is required (or set HANDOFF_SESSION_ID)');
  const lang = await resolveLang(repo, req.lang);
  const path = handoffDocPath(ref);
  const abs = insidePath(ctx.workTree, path, 'the handoff document');
  const command = shellCommand(['git', 'handoff', 'doc', '--work-item', ref.text, '--session', session, ...(req.toStatus ? ['--to-status', target] : [])]);

  if (ctx.state === 'backlog' || ctx.state === 'done' || !ctx.record) {
    const v = decideTransition('handoff', ctx.state, { target });
    throw new TransitionRefused(`cannot hand off ${ref.text}: ${v.ok ? 'it has no record' : v.reason}`, { state: ctx.state });
  }
  const record = ctx.record;

  // Phase 1: no document yet: the skeleton, and nothing else.
  if (!existsSync(abs)) {
    const skeleton = renderTemplate(templateText(ctx, lang), { n: String(ref.number), title: record.title, workItem: ref.text });
    const seed = await buildSeed(ctx, { ...record, handoffDoc: path }, lang, ctx.policy.effective);
    const text = replaceSeed(skeleton, seed);
    if (!req.dryRun) writeAtomically(abs, text, path);
    return { phase: 'skeleton', workItem: ref.text, path, dryRun: req.dryRun, text };
  }

  // Phase 2: validate; every problem at once.
  const text = readDoc(abs, path);
  await refuseSecrets(repo, { [path]: text, session });
  const problems: DocProblem[] = validateHandoffDoc(text, await docFacts(ctx, path));
  if (problems.length) throw new ValidationFailed(describeProblems(path, problems), { path, problems });

  const head = await repo.headCommit();
  const hash = handoffDocHash(text);
  const id = handoffReceiptId(ref, hash);
  const existing = await ctx.items.receipt(id);
  if (existing && existing.workItem !== ref.text) throw new WorkItemConflict(`receipt ${id} belongs to ${existing.workItem}, not ${ref.text}`);
  const cited = citedReceipts(text).map((c) => c.id);

  const settled = existing !== null && existing.toStatus === target && record.state === target && record.handoffDoc === path && record.receipts.includes(id);
  let receipt: Receipt;
  let next: ItemRecord = record;
  if (settled) {
    receipt = existing;
  } else {
    const v = decideTransition('handoff', record.state, { target, receipt: id, commit: head });
    if (!v.ok) throw new TransitionRefused(`cannot hand off ${ref.text}: ${v.reason}`, { state: record.state });
    const at = await receiptTime(ctx);
    receipt =
      existing && existing.toStatus === target
        ? existing
        : {
            id,
            workItem: ref.text,
            session,
            handoffDocPath: path,
            handoffDocHash: hash,
            commit: head,
            receiptIds: cited,
            fromStatus: record.state,
            toStatus: target,
            at,
            kind: 'handoff',
          };
    next = { ...record, state: v.to, handoffDoc: path, receipts: [...record.receipts.filter((r) => r !== id), id] };
    if (!req.dryRun) {
      await ctx.items.apply({
        kind: v.to !== record.state ? 'item' : 'receipt',
        subject: `handoff item: ${existing ? 'rewrite' : 'receipt'} ${id} for ${ref.text} (${record.state} -> ${v.to})`,
        trailers: { 'Handoff-Item': ref.text, 'Handoff-Receipt': id },
        item: { ref, record: next, expectBlob: ctx.stored.blob },
        receipts: receipt === existing ? [] : [receipt],
      });
    }
  }

  const steps = await syncProvider(ctx, receipt, () => ctx.provider.plan({ ref, receipt, handoffDoc: path, status: target }), { dryRun: req.dryRun, command });

  // Last: the SEED section, rendered from the state just recorded.
  const seed = await buildSeed(ctx, next, lang, ctx.policy.effective, [receipt]);
  const fresh = replaceSeed(text, seed);
  // Committing the document moves HEAD, which the seed carries; a re-run whose
  // document and receipt are unchanged must not dirty the work tree for that alone.
  const rewritten = settled && head !== null && onlyHeadMoved(text, fresh, head) ? text : fresh;
  const seedWritten = rewritten !== text;
  if (seedWritten && !req.dryRun) writeAtomically(abs, rewritten, path);
  return {
    phase: 'handoff',
    workItem: ref.text,
    path,
    state: next.state,
    receipt,
    unchanged: settled,
    dryRun: req.dryRun,
    provider: ref.provider,
    steps,
    seedWritten,
  };
}
