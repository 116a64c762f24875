/**
 * `seed`: the next session's prompt for a work item, rendered from the item's record, its
 * receipts, the delivery authorization and the policy. Writes nothing; the same inputs
 * give the same bytes (no clock, locale or time zone is read on this path).
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Repo } from '../git/repo.js';
import { VersionReader } from '../history/reader.js';
import { upstreamOf } from '../git/reachability.js';
import { remoteName, renderSeed } from '../core/seed-prompt.js';
import { assessAuthorization, type AuthorizationView } from '../core/authorization.js';
import { DEFAULT_RULE_FILES, type Policy } from '../core/policy.js';
import type { Lang } from '../core/handoff-doc.js';
import type { ItemRecord } from '../core/work-item.js';
import type { Receipt } from '../core/receipt.js';
import { openItem, receiptsOf, resolveLang, type ItemContext } from './work-items.js';
import { untrustedNotice } from './policy.js';
import type { WorkItemRef } from '../core/work-item.js';
import { UnknownWorkItem } from '../errors.js';

/**
 * The repository's folder name, the same from every worktree of it: the folder holding the
 * common `.git` (or a bare `name.git`), not the worktree the command runs in.
 */
function repositoryFolder(repo: Repo): string {
  const common = repo.paths.commonDir;
  return basename(common) === '.git' ? basename(dirname(common)) : basename(common).replace(/\.git$/, '');
}

/** The main work tree's path (the folder holding the common `.git`), else the git dir. */
function repositoryPath(repo: Repo): string {
  const common = repo.paths.commonDir;
  return basename(common) === '.git' ? dirname(common) : common;
}

/**
 * Project and repository: the provider's `owner/repo` for a github item; for a
 * local one the repository's own folder, and its hosted remote when origin is one (a path
 * to a bare repository on this disk names nothing the next session needs), else its path.
 */
async function prefixOf(ctx: ItemContext, policy: Policy) {
  const pre = policy.seed.prefix;
  const origin = await ctx.repo.configGet('remote.origin.url');
  const hosted = origin && isHostedUrl(origin) ? remoteName(origin) : null;
  const { ref } = ctx;
  const github = ref.provider === 'github';
  const project = pre.project ?? (github ? `${ref.owner}/${ref.repo}` : repositoryFolder(ctx.repo));
  const repository = pre.repository ?? (github ? `github.com/${ref.owner}/${ref.repo}` : (hosted ?? repositoryPath(ctx.repo)));
  const rules = pre.rules ?? DEFAULT_RULE_FILES.filter((f) => existsSync(join(ctx.workTree, f)));
  return { project, repository, rules, report: pre.report };
}

/** A URL with a host (https, ssh, scp-like `host:path`), not a path or file:// on this machine. */
function isHostedUrl(url: string): boolean {
  const u = url.trim();
  if (/^file:/i.test(u) || u.startsWith('/') || u.startsWith('.') || /^[a-z]:[\\/]/i.test(u)) return false;
  return /^[a-z][a-z0-9+.-]*:\/\/[^/]/i.test(u) || /^(?:[^@/]+@)?[^/:@]+:/.test(u);
}

/** The authorization with its recorded facts checked against now. */
export async function authorizationOf(ctx: ItemContext, record: ItemRecord, receipts: Receipt[]): Promise<AuthorizationView | null> {
  if (!record.authorization) return null;
  const auth = receipts.find((r) => r.id === record.authorization) ?? (await ctx.items.receipt(record.authorization));
  if (!auth) return null;
  const retries = receipts.filter((r) => r.kind === 'retry' && r.authorization === auth.id);
  const branch = ctx.repo.headBranch();
  const lastPr = retries.find((r) => r.pr)?.pr ?? auth.pr ?? null;
  const base = auth.pr ? (lastPr?.baseRefName ?? null) : await upstreamOf(ctx.repo, branch);
  const latest = await new VersionReader(ctx.repo).latest({ branch });
  const current = !latest.fallback && typeof latest.version?.handoff.work_item === 'string' ? latest.version.handoff.work_item : null;
  return assessAuthorization(auth, { currentWorkItem: current, branch, base, retriesUsed: retries.length });
}

/** Renders the seed for `record` (which may be the planned, not yet written, record). */
export async function buildSeed(ctx: ItemContext, record: ItemRecord, lang: Lang, policy: Policy, extra: Receipt[] = []): Promise<string> {
  const stored = await receiptsOf(ctx.items, record);
  const known = new Set(stored.map((r) => r.id));
  const pending = extra.filter((r) => !known.has(r.id));
  // A receipt planned in this run (dry run, or not yet re-read) replaces its stored copy.
  const receipts = [...pending, ...stored.map((r) => extra.find((e) => e.id === r.id) ?? r)];
  const order = [...record.receipts].reverse();
  receipts.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
  return renderSeed({
    lang,
    workItem: record.workItem,
    state: record.state,
    title: record.title,
    acceptance: record.acceptance,
    handoffDoc: record.handoffDoc,
    branch: ctx.repo.headBranch(),
    head: await ctx.repo.headCommit(),
    prefix: await prefixOf(ctx, policy),
    constraints: policy.seed.constraints,
    receipts,
    authorization: await authorizationOf(ctx, record, receipts),
  });
}

export interface SeedResult {
  workItem: string;
  seed: string;
  /** set when the policy file is not approved and the defaults were used */
  notice: string | null;
}

export async function seedFor(repo: Repo, ref: WorkItemRef, req: { lang?: string }): Promise<SeedResult> {
  const ctx = await openItem(repo, ref, { write: false });
  if (!ctx.record) throw new UnknownWorkItem(`there is no record of ${ref.text} yet; run 'git handoff claim --work-item ${ref.text}' first`);
  const lang = await resolveLang(repo, req.lang);
  const seed = await buildSeed(ctx, ctx.record, lang, ctx.policy.effective);
  return { workItem: ref.text, seed, notice: untrustedNotice(ctx.policy) };
}
