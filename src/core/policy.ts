/**
 * The repository policy `.harness/session-workflow.yaml` (the source's "仓库策略"):
 * the template, the provider's field names, the status mapping, the seed prefix and
 * constraints, the phrase lists. Read-only: the tool never writes it; a file is trusted only
 * once its hash is approved (`git handoff policy approve`). Pure.
 */
import { createHash } from 'node:crypto';
import { ITEM_STATES, type ItemState } from './work-item.js';
import { isObjectId } from './object-id.js';

export const POLICY_PATH = '.harness/session-workflow.yaml';

export interface SeedPrefix {
  /** null: derived (the repository's name) */
  project: string | null;
  /** null: derived (github owner/repo, else the origin remote) */
  repository: string | null;
  /** null: derived (the rule files present: AGENTS.md, CLAUDE.md, ...) */
  rules: string[] | null;
  report: string;
}

export interface Policy {
  /** path of the document template, relative to the work tree; null: the shipped one */
  template: string | null;
  /** the provider's field names */
  fields: { status: string; handoffDoc: string; acceptance: string };
  /** our state -> the provider's option name */
  statusValues: Record<ItemState, string>;
  seed: { prefix: SeedPrefix; constraints: string[] };
  /** phrase lists for the session-end classifier; null: built-in */
  phrases: Record<string, string[]> | null;
}

export const DEFAULT_REPORT =
  "At the end of the session fill the handoff document and run 'git handoff doc'; report progress as commit ids and receipt ids, never as a summary.";

export const DEFAULT_CONSTRAINTS: readonly string[] = [
  'No state change without evidence: a commit id, a receipt id or a check result.',
  'A summary is not evidence: progress is what git, the receipts and the tracker show.',
  'Only a person moves a work item back to backlog.',
  'Do not edit the SEED section of the handoff document: git handoff rewrites it.',
];

export const DEFAULT_RULE_FILES: readonly string[] = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md', 'CONTRIBUTING.md'];

export function defaultPolicy(): Policy {
  return {
    template: null,
    fields: { status: 'Status', handoffDoc: 'Handoff doc', acceptance: 'Acceptance' },
    statusValues: { backlog: 'backlog', 'in-progress': 'in-progress', 'ready-for-review': 'ready-for-review', done: 'done' },
    seed: { prefix: { project: null, repository: null, rules: null, report: DEFAULT_REPORT }, constraints: [...DEFAULT_CONSTRAINTS] },
    phrases: null,
  };
}

/** The hash a policy file is approved by: its `git hash-object` id. */
export function policyHash(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The effective policy: the file's values over the defaults. A value of the wrong type is
 * a problem (the file is refused whole), never silently dropped.
 */
export function normalizePolicy(raw: unknown): { policy: Policy } | { problem: string } {
  const p = defaultPolicy();
  if (raw === null || raw === undefined) return { policy: p };
  if (!isObj(raw)) return { problem: 'the policy is not a mapping' };
  const str = (v: unknown, key: string): string => {
    if (typeof v !== 'string' || v.trim() === '') throw new Error(`${key} must be a non-empty string`);
    return v;
  };
  const strList = (v: unknown, key: string): string[] => {
    if (typeof v === 'string') return [v];
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new Error(`${key} must be a list of strings`);
    return v as string[];
  };
  const section = (v: unknown, key: string): Obj => {
    if (!isObj(v)) throw new Error(`${key} must be a mapping`);
    return v;
  };
  try {
    if (raw.template != null) p.template = str(raw.template, 'template');
    if (raw.fields != null) {
      const f = section(raw.fields, 'fields');
      for (const k of ['status', 'handoffDoc', 'acceptance'] as const) if (f[k] != null) p.fields[k] = str(f[k], `fields.${k}`);
    }
    if (raw.statusValues != null) {
      const s = section(raw.statusValues, 'statusValues');
      for (const k of Object.keys(s)) {
        if (!ITEM_STATES.includes(k as ItemState)) throw new Error(`statusValues.${k} is not a state (${ITEM_STATES.join(', ')})`);
        p.statusValues[k as ItemState] = str(s[k], `statusValues.${k}`);
      }
    }
    if (raw.seed != null) {
      const s = section(raw.seed, 'seed');
      if (s.prefix != null) {
        const pre = section(s.prefix, 'seed.prefix');
        if (pre.project != null) p.seed.prefix.project = str(pre.project, 'seed.prefix.project');
        if (pre.repository != null) p.seed.prefix.repository = str(pre.repository, 'seed.prefix.repository');
        if (pre.rules != null) p.seed.prefix.rules = strList(pre.rules, 'seed.prefix.rules');
        if (pre.report != null) p.seed.prefix.report = str(pre.report, 'seed.prefix.report');
      }
      if (s.constraints != null) p.seed.constraints = strList(s.constraints, 'seed.constraints');
    }
    if (raw.phrases != null) {
      const ph = section(raw.phrases, 'phrases');
      const out: Record<string, string[]> = {};
      for (const k of Object.keys(ph)) out[k] = strList(ph[k], `phrases.${k}`);
      p.phrases = out;
    }
  } catch (e) {
    return { problem: (e as Error).message };
  }
  return { policy: p };
}

/** Where approved policy hashes live in the notes tree, one per line. */
export const APPROVED_POLICY_PATH = 'policy/approved';

/** The approved policy hashes in a `policy/approved` blob. */
export function approvedList(text: string | null): string[] {
  return text
    ? text
        .split('\n')
        .map((l) => l.trim())
        .filter(isObjectId)
    : [];
}

export function approvedText(hashes: string[]): string {
  return `${hashes.join('\n')}\n`;
}

/**
 * Two clones approved policies meanwhile (sync): every approval stays, the kept side's
 * first. Null when the kept list already holds them all.
 */
export function mergeApproved(kept: string, other: string): string | null {
  const mine = approvedList(kept);
  const extra = approvedList(other).filter((h, i, all) => !mine.includes(h) && all.indexOf(h) === i);
  return extra.length ? approvedText([...mine, ...extra]) : null;
}
