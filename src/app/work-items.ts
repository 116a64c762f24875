/**
 * What every work-item command starts from: the item, its record in the notes, the policy,
 * the provider; and how the provider's planned steps run (or, with --dry-run, do not).
 */
import type { Repo } from '../git/repo.js';
import { ItemStore, type StoredItem } from '../git/item-store.js';
import { readSessions } from '../state/session-store.js';
import { isoUtc } from '../git/identity.js';
import { parseWorkItem, type ItemRecord, type ItemState, type WorkItemRef } from '../core/work-item.js';
import type { Receipt } from '../core/receipt.js';
import { LANGS, type Lang } from '../core/handoff-doc.js';
import { currentSession } from '../core/session.js';
import { loadPolicy, requireTrusted, type LoadedPolicy } from './policy.js';
import { localProvider } from '../providers/local.js';
import { DELIVERY_CONFIG_PATH, GitHubProvider, NO_DELIVERY, parseDeliveryConfig, type DeliveryConfig } from '../providers/github.js';
import { runGh } from '../providers/gh.js';
import { noteConfigWarning } from '../git/config-values.js';
import type { PlannedStep, Provider, StepName } from '../providers/types.js';
import {
  DamagedWorkItem,
  GhFailed,
  InvalidPolicy,
  ProviderFailed,
  SecretDetected,
  UsageError,
  WorkItemConflict,
  isHandoffError,
  UnsafePath,
} from '../errors.js';
import { requireWorkTree } from './repository.js';
import { compileAllow, scanFields } from '../core/secret-fields.js';
import { describeSecrets } from '../core/secret-report.js';
import { readWorkTreeFile } from '../state/bounded-file.js';

export interface ItemContext {
  repo: Repo;
  workTree: string;
  ref: WorkItemRef;
  items: ItemStore;
  stored: StoredItem;
  /** the record, or null for an item the notes do not know yet (backlog) */
  record: ItemRecord | null;
  state: ItemState;
  policy: LoadedPolicy;
  delivery: DeliveryConfig;
  provider: Provider;
}

export function parseItemOption(text: string | undefined): WorkItemRef {
  if (!text) throw new UsageError('--work-item is required (github:<owner>/<repo>#<n> or local:#<n>)');
  const ref = parseWorkItem(text);
  if (!ref) throw new UsageError(`not a work item: ${text} (use github:<owner>/<repo>#<n> or local:#<n>)`);
  return ref;
}

function readDelivery(workTree: string): DeliveryConfig {
  let text: string;
  try {
    const bytes = readWorkTreeFile(workTree, DELIVERY_CONFIG_PATH);
    if (bytes === null) return NO_DELIVERY;
    text = bytes.toString('utf8');
  } catch (e) {
    if (isHandoffError(e, UnsafePath)) throw e;
    return NO_DELIVERY;
  }
  const d = parseDeliveryConfig(text);
  if ('problem' in d) throw new InvalidPolicy(`${DELIVERY_CONFIG_PATH}: ${d.problem}`);
  return d;
}

/** Opens the item; `write` commands also require a trusted policy. */
export async function openItem(repo: Repo, ref: WorkItemRef, opts: { write: boolean }): Promise<ItemContext> {
  const workTree = requireWorkTree(repo, 'work items', { plural: true });
  const items = new ItemStore(repo);
  const [stored, policy] = await Promise.all([items.item(ref), loadPolicy(repo, items)]);
  if (stored.problem) throw new DamagedWorkItem(stored.problem);
  if (stored.record && stored.record.workItem !== ref.text) {
    throw new WorkItemConflict(`#${ref.number} is already tracked as ${stored.record.workItem}; one repository numbers its ${ref.provider} items once`);
  }
  if (opts.write) requireTrusted(policy);
  const delivery = ref.provider === 'github' ? readDelivery(workTree) : NO_DELIVERY;
  const provider = ref.provider === 'github' ? new GitHubProvider(runGh(workTree), delivery, policy.effective) : localProvider;
  return { repo, workTree, ref, items, stored, record: stored.record, state: stored.record?.state ?? 'backlog', policy, delivery, provider };
}

/**
 * docs/handoff.md: what the user gives (a title, acceptance, scope,
 * the handoff document) is scanned before anything is written; a hit aborts, masked.
 */
export async function refuseSecrets(repo: Repo, given: Record<string, string | null | undefined>): Promise<void> {
  const allow = compileAllow(await repo.configAll('handoff.secrets.allow'));
  const hits = scanFields(Object.fromEntries(Object.entries(given).filter(([, v]) => typeof v === 'string')), allow);
  if (!hits.length) return;
  const r = describeSecrets(
    hits,
    hits.map((h) => h.line),
    null,
  );
  throw new SecretDetected(r.message, r.data);
}

/** The session: the flag, else HANDOFF_SESSION_ID, else the live agent session that started last. */
export function resolveSession(repo: Repo, flag: string | undefined): string | null {
  if (flag) return flag;
  if (process.env.HANDOFF_SESSION_ID) return process.env.HANDOFF_SESSION_ID;
  return currentSession(readSessions(repo.gitDir), undefined)?.session_id ?? null;
}

/** The document language: the flag, else `handoff.lang`, else English. */
export async function resolveLang(repo: Repo, flag: string | undefined): Promise<Lang> {
  if (flag !== undefined) {
    const v = flag.toLowerCase();
    if (!LANGS.includes(v as Lang)) throw new UsageError(`unknown language '${flag}' (use ${LANGS.join(', ')})`);
    return v as Lang;
  }
  const configured = await repo.configGet('handoff.lang');
  if (configured === undefined) return 'en';
  const v = configured.trim().toLowerCase();
  if (LANGS.includes(v as Lang)) return v as Lang;
  // A config value that cannot be used is a warning, never a silent default.
  noteConfigWarning('handoff.lang', configured, `handoff.lang '${configured}' is not a language of the templates (${LANGS.join(', ')}); using en`);
  return 'en';
}

/** The time a receipt records: the committer time of its notes commit (honours GIT_COMMITTER_DATE). */
export async function receiptTime(ctx: ItemContext): Promise<string> {
  return isoUtc((await ctx.items.identities()).committer.timestamp);
}

/** The item's receipts, newest first. */
export async function receiptsOf(items: ItemStore, record: ItemRecord | null): Promise<Receipt[]> {
  if (!record) return [];
  const out: Receipt[] = [];
  for (const id of [...record.receipts].reverse()) {
    const r = await items.receipt(id);
    if (r) out.push(r);
  }
  return out;
}

/** The last receipt of the record, when it is of `kind`. */
export async function lastReceipt(ctx: ItemContext, kind: Receipt['kind']): Promise<Receipt | null> {
  const id = ctx.record?.receipts[ctx.record.receipts.length - 1];
  if (!id) return null;
  const r = await ctx.items.receipt(id);
  return r && r.kind === kind ? r : null;
}

export interface StepResult {
  step: StepName;
  state: 'done' | 'skipped' | 'planned';
  detail: string;
}

/** The outcome every transition command reports. */
export interface TransitionResult {
  workItem: string;
  state: ItemState;
  receipt: Receipt;
  /** nothing local was written: the same receipt was already there */
  unchanged: boolean;
  dryRun: boolean;
  provider: string;
  steps: StepResult[];
}

/**
 * Plans and runs the provider's steps in order. A failure stops there with exit 4, saying
 * which step failed and that re-running is safe: the local receipt stays, and the re-run
 * skips what is already done.
 */
export async function syncProvider(
  ctx: ItemContext,
  receipt: Receipt,
  plan: () => Promise<PlannedStep[]>,
  opts: { dryRun: boolean; command: string },
): Promise<StepResult[]> {
  const done: StepResult[] = [];
  let steps: PlannedStep[];
  try {
    steps = await plan();
  } catch (e) {
    throw providerFailure(ctx, receipt, 'read', e, done, opts);
  }
  for (const s of steps) {
    if (!s.needed) {
      done.push({ step: s.step, state: 'skipped', detail: s.detail });
      continue;
    }
    if (opts.dryRun) {
      done.push({ step: s.step, state: 'planned', detail: s.detail });
      continue;
    }
    try {
      await s.run();
    } catch (e) {
      throw providerFailure(ctx, receipt, s.step, e, done, opts);
    }
    done.push({ step: s.step, state: 'done', detail: s.detail });
  }
  return done;
}

/**
 * What went wrong in a provider call, for a ProviderFailed message: gh failed, or answered
 * with something we cannot use (JSON of an unexpected shape). Either way the provider step
 * did not happen and re-running is safe. Null for our own typed errors: they keep their class.
 */
export function providerProblem(e: unknown): string | null {
  if (isHandoffError(e, GhFailed)) return e.detail;
  if (isHandoffError(e)) return null;
  const message = e instanceof Error ? e.message : String(e);
  return `unexpected answer from gh (${message.split('\n')[0]})`;
}

function providerFailure(ctx: ItemContext, receipt: Receipt, step: string, e: unknown, done: StepResult[], opts: { dryRun: boolean; command: string }): Error {
  const problem = providerProblem(e);
  if (problem === null) return e as Error;
  const kept = opts.dryRun ? 'nothing was written' : `the local receipt ${receipt.id} is kept`;
  const what = step === 'read' ? 'reading from GitHub' : `the ${step} step`;
  return new ProviderFailed(
    `${ctx.ref.provider}: ${what} failed: ${problem}; ${kept}; re-running '${opts.command}' is safe and completes the remaining steps`,
    { step, receipt: receipt.id, completed: done.filter((d) => d.state !== 'planned').map((d) => d.step) },
  );
}
