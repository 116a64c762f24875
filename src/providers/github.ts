/**
 * The `github` provider, through the `gh` command line: the title and
 * acceptance from the issue, receipts as issue comments (skipped when an earlier comment
 * already carries them), the handoff-doc and status fields on the project board. The JSON
 * read here is what `gh` prints: `issue view --json`, and `project view/field-list/item-list
 * --format json` (item field values keyed by the field's name with its first letter
 * lower-cased, as gh's own formatter writes them).
 */
import { ghJson, type GhRunner } from './gh.js';
import { GhFailed } from '../errors.js';
import type { ItemDescription, PlannedStep, Provider, RemoteItem, SyncRequest } from './types.js';
import type { WorkItemRef } from '../core/work-item.js';
import type { CheckResult, PullRequestFacts, Receipt } from '../core/receipt.js';
import type { Policy } from '../core/policy.js';
import { normalizeHeading } from '../core/handoff-doc.js';
import { readJsonObject } from '../core/json-object.js';

export const DELIVERY_CONFIG_PATH = '.harness/worktree-delivery.json';

/** `repository`, `project` (number) and `statusField` from `.harness/worktree-delivery.json`. */
export interface DeliveryConfig {
  repository: string | null;
  project: number | null;
  /** the project's owner (user or organization); default: the repository's owner */
  projectOwner: string | null;
  statusField: string | null;
}

export const NO_DELIVERY: DeliveryConfig = { repository: null, project: null, projectOwner: null, statusField: null };

/** Reads the delivery config; its keys may sit at the top level or under `github`/`provider`. */
export function parseDeliveryConfig(text: string): DeliveryConfig | { problem: string } {
  const read = readJsonObject(text);
  if ('problem' in read) return read;
  const top = read.object;
  const nested = [top.github, top.provider].find((x) => x && typeof x === 'object' && !Array.isArray(x)) as Record<string, unknown> | undefined;
  const get = (k: string) => top[k] ?? nested?.[k];
  const project = get('project');
  const num = typeof project === 'number' ? project : typeof project === 'string' && /^\d+$/.test(project) ? Number(project) : null;
  if (project != null && num === null) return { problem: '`project` must be a project number' };
  const s = (k: string) => (typeof get(k) === 'string' && (get(k) as string).trim() ? (get(k) as string).trim() : null);
  return { repository: s('repository'), project: num, projectOwner: s('projectOwner') ?? s('owner'), statusField: s('statusField') };
}

interface GhComment {
  body: string;
}
interface GhIssue {
  title?: string;
  state?: string;
  body?: string;
  comments?: GhComment[];
}
interface GhField {
  id: string;
  name: string;
  type: string;
  options?: { id: string; name: string }[];
}
interface GhItem {
  id: string;
  content?: { type?: string; number?: number; repository?: string; title?: string };
  [field: string]: unknown;
}
interface GhCheck {
  __typename?: string;
  name?: string;
  context?: string;
  status?: string;
  conclusion?: string;
  state?: string;
}
interface GhPullRequest {
  number: number;
  url: string;
  headRefOid: string;
  baseRefName: string;
  statusCheckRollup?: GhCheck[];
}

/** gh's key for a field's value in `item-list` output: the name with its first letter lower-cased. */
export function fieldKey(name: string): string {
  return name ? name[0].toLowerCase() + name.slice(1) : name;
}

/** The issue comment that carries a receipt: one line for people, one JSON block for tools. */
export function receiptComment(r: Receipt): string {
  const data = {
    gitHandoff: 1,
    workItem: r.workItem,
    receipts: [r.id],
    kind: r.kind,
    status: r.toStatus,
    commit: r.commit,
    handoffDoc: r.handoffDocPath,
    evidence: r.receiptIds,
  };
  return [
    `git handoff: receipt \`${r.id}\` (${r.kind}, ${r.fromStatus} -> ${r.toStatus}${r.commit ? `, commit ${r.commit.slice(0, 12)}` : ''})`,
    '',
    '```json',
    JSON.stringify(data),
    '```',
    '',
  ].join('\n');
}

/** Does an earlier comment already carry this receipt with this status? */
export function commentCarries(body: string, r: Receipt): boolean {
  for (const m of body.matchAll(/```json\s*\n([\s\S]*?)\n```/g)) {
    try {
      const d = JSON.parse(m[1]) as { gitHandoff?: number; receipts?: unknown; status?: unknown };
      if (d.gitHandoff === 1 && Array.isArray(d.receipts) && d.receipts.includes(r.id) && d.status === r.toStatus) return true;
    } catch {}
  }
  return false;
}

/** The text of the Markdown section headed `names` (any level), up to the next heading as high. */
export function markdownSection(body: string, names: string[]): string | null {
  const wanted = new Set(names.map(normalizeHeading));
  const lines = body.replace(/\r\n/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const h = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(lines[i]);
    if (!h || !wanted.has(normalizeHeading(h[2]))) continue;
    const level = h[1].length;
    const out: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const next = /^ {0,3}(#{1,6})\s/.exec(lines[j]);
      if (next && next[1].length <= level) break;
      out.push(lines[j]);
    }
    return out.join('\n').trim();
  }
  return null;
}

function checkOf(c: GhCheck): CheckResult {
  if (c.__typename === 'StatusContext' || (c.context && !c.name)) {
    return { name: c.context ?? 'status', status: 'COMPLETED', conclusion: c.state ?? '' };
  }
  return { name: c.name ?? 'check', status: c.status ?? '', conclusion: c.conclusion ?? '' };
}

interface ProjectView {
  id: string;
  fields: GhField[];
  items: GhItem[];
}

export class GitHubProvider implements Provider {
  readonly name = 'github' as const;
  private project: Promise<ProjectView> | null = null;

  constructor(
    private readonly gh: GhRunner,
    private readonly delivery: DeliveryConfig,
    private readonly policy: Policy,
  ) {}

  private repoArgs(ref: WorkItemRef): string[] {
    return ['--repo', `${ref.owner}/${ref.repo}`];
  }

  private projectOwner(ref: WorkItemRef): string {
    return this.delivery.projectOwner ?? ref.owner!;
  }

  private loadProject(ref: WorkItemRef): Promise<ProjectView> {
    this.project ??= (async () => {
      const num = String(this.delivery.project);
      const owner = ['--owner', this.projectOwner(ref)];
      const view = await ghJson<{ id: string }>(this.gh, ['project', 'view', num, ...owner, '--format', 'json']);
      const fields = await ghJson<{ fields: GhField[] }>(this.gh, ['project', 'field-list', num, ...owner, '--format', 'json', '--limit', '100']);
      const items = await ghJson<{ items: GhItem[] }>(this.gh, ['project', 'item-list', num, ...owner, '--format', 'json', '--limit', '1000']);
      return { id: view.id, fields: fields.fields ?? [], items: items.items ?? [] };
    })();
    return this.project;
  }

  private itemOf(view: ProjectView, ref: WorkItemRef): GhItem {
    const full = `${ref.owner}/${ref.repo}`.toLowerCase();
    const item = view.items.find((i) => i.content?.type === 'Issue' && i.content.number === ref.number && (i.content.repository ?? '').toLowerCase() === full);
    if (!item) {
      throw new GhFailed(
        ['project', 'item-list'],
        `issue ${full}#${ref.number} is not an item of project ${this.delivery.project}; add it with 'gh project item-add ${this.delivery.project} --owner ${this.projectOwner(ref)} --url https://github.com/${ref.owner}/${ref.repo}/issues/${ref.number}'`,
      );
    }
    return item;
  }

  private field(view: ProjectView, name: string): GhField {
    const f = view.fields.find((x) => x.name === name) ?? view.fields.find((x) => x.name.toLowerCase() === name.toLowerCase());
    if (!f) throw new GhFailed(['project', 'field-list'], `project ${this.delivery.project} has no field named "${name}"`);
    return f;
  }

  async describe(ref: WorkItemRef): Promise<ItemDescription> {
    const issue = await ghJson<GhIssue>(this.gh, ['issue', 'view', String(ref.number), ...this.repoArgs(ref), '--json', 'title,body,comments']);
    const name = this.policy.fields.acceptance;
    let acceptance = markdownSection(issue.body ?? '', [name, 'Acceptance', 'Acceptance criteria', '验收标准', 'Критерии приёмки']);
    if (acceptance === null && this.delivery.project !== null) {
      const view = await this.loadProject(ref);
      const value = this.itemOf(view, ref)[fieldKey(this.field(view, name).name)];
      acceptance = typeof value === 'string' ? value : null;
    }
    return { title: issue.title ?? '', acceptance: acceptance ?? '' };
  }

  async plan(req: SyncRequest): Promise<PlannedStep[]> {
    const { ref, receipt } = req;
    const n = String(ref.number);
    const issue = await ghJson<GhIssue>(this.gh, ['issue', 'view', n, ...this.repoArgs(ref), '--json', 'comments']);
    const carried = (issue.comments ?? []).some((c) => commentCarries(c.body ?? '', receipt));
    const steps: PlannedStep[] = [
      {
        step: 'comment',
        needed: !carried,
        detail: carried ? `an earlier comment on #${n} already carries ${receipt.id}` : `comment on #${n} with receipt ${receipt.id}`,
        run: async () => void (await this.gh(['issue', 'comment', n, ...this.repoArgs(ref), '--body', receiptComment(receipt)])),
      },
    ];
    if (this.delivery.project === null || (req.handoffDoc === undefined && req.status === undefined)) return steps;
    const view = await this.loadProject(ref);
    const item = this.itemOf(view, ref);
    const edit = (fieldId: string, value: string[]) => async () =>
      void (await this.gh(['project', 'item-edit', '--id', item.id, '--project-id', view.id, '--field-id', fieldId, ...value]));
    if (req.handoffDoc !== undefined) {
      const f = this.field(view, this.policy.fields.handoffDoc);
      const same = item[fieldKey(f.name)] === req.handoffDoc;
      steps.push({ step: 'handoff-doc', needed: !same, detail: `set "${f.name}" to ${req.handoffDoc}`, run: edit(f.id, ['--text', req.handoffDoc]) });
    }
    if (req.status !== undefined) {
      const f = this.field(view, this.delivery.statusField ?? this.policy.fields.status);
      const wanted = this.policy.statusValues[req.status];
      const opt = f.options?.find((o) => o.name === wanted) ?? f.options?.find((o) => o.name.toLowerCase() === wanted.toLowerCase());
      if (!opt)
        throw new GhFailed(
          ['project', 'field-list'],
          `field "${f.name}" of project ${this.delivery.project} has no option "${wanted}" (statusValues in the policy maps our states to its options)`,
        );
      const same = item[fieldKey(f.name)] === opt.name;
      steps.push({ step: 'status', needed: !same, detail: `set "${f.name}" to ${opt.name}`, run: edit(f.id, ['--single-select-option-id', opt.id]) });
    }
    return steps;
  }

  async inspect(ref: WorkItemRef): Promise<RemoteItem> {
    const issue = await ghJson<GhIssue>(this.gh, ['issue', 'view', String(ref.number), ...this.repoArgs(ref), '--json', 'title,state']);
    if (!issue || typeof issue !== 'object') throw new GhFailed(['issue', 'view'], `printed ${JSON.stringify(issue)}, not the issue`);
    const out: RemoteItem = {
      issueState: String(issue.state ?? ''),
      title: issue.title ?? '',
      boardStatus: null,
      boardHandoffDoc: null,
      statusField: null,
      handoffDocField: null,
    };
    if (this.delivery.project === null) return out;
    const view = await this.loadProject(ref);
    const item = this.itemOf(view, ref);
    const status = this.field(view, this.delivery.statusField ?? this.policy.fields.status);
    const doc = this.field(view, this.policy.fields.handoffDoc);
    const value = (f: GhField) => (typeof item[fieldKey(f.name)] === 'string' && item[fieldKey(f.name)] !== '' ? (item[fieldKey(f.name)] as string) : null);
    return { ...out, boardStatus: value(status), boardHandoffDoc: value(doc), statusField: status.name, handoffDocField: doc.name };
  }

  async pullRequest(ref: WorkItemRef, branch: string): Promise<PullRequestFacts | null> {
    const prs = await ghJson<GhPullRequest[]>(this.gh, [
      'pr',
      'list',
      ...this.repoArgs(ref),
      '--head',
      branch,
      '--state',
      'open',
      '--json',
      'number,url,headRefOid,baseRefName,statusCheckRollup',
    ]);
    const pr = prs[0];
    if (!pr) return null;
    const checks = (pr.statusCheckRollup ?? []).map(checkOf).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { number: pr.number, url: pr.url, headRefOid: pr.headRefOid, baseRefName: pr.baseRefName, checks };
  }
}
