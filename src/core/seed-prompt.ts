/**
 * The next session's seed prompt (the source's §7): goal = the item's title,
 * acceptance = its criteria, a fixed prefix (project, repository, rule files, report
 * protocol), the evidence of the latest receipts, the delivery authorization, and the
 * policy's constraints. Deterministic: the same input gives the same bytes, with no clock,
 * locale, time zone or random value anywhere. Pure.
 */
import type { Lang } from './handoff-doc.js';
import type { ItemState } from './work-item.js';
import type { Receipt } from './receipt.js';
import type { AuthorizationView } from './authorization.js';

export interface SeedInput {
  lang: Lang;
  workItem: string;
  state: ItemState;
  title: string;
  acceptance: string;
  handoffDoc: string | null;
  branch: string | null;
  head: string | null;
  prefix: { project: string; repository: string; rules: string[]; report: string };
  constraints: string[];
  /** newest first */
  receipts: Receipt[];
  authorization: AuthorizationView | null;
}

/** How many receipts the seed cites. */
export const SEED_RECEIPTS = 5;

const LABELS: Record<Lang, Record<string, string>> = {
  en: {
    title: 'Session seed',
    project: 'Project',
    repository: 'Repository',
    rules: 'Rule files (read before acting)',
    report: 'Report protocol',
    goal: 'Goal',
    acceptance: 'Acceptance criteria',
    state: 'State',
    doc: 'Handoff document (read it first)',
    branch: 'Branch',
    head: 'Head',
    detached: '(detached)',
    evidence: 'Evidence (latest receipts, newest first)',
    auth: 'Delivery authorization',
    scope: 'Scope',
    retries: 'Retries left',
    of: 'of',
    recorded: 'Recorded head',
    pr: 'Pull request',
    checks: 'Checks',
    holds: 'Holds: a session switch, a normal commit or a rebase inside this scope needs no new confirmation.',
    void: 'VOID',
    ask: 'Ask the user for a new authorization before delivering.',
    constraints: 'Constraints',
    none: '(none)',
    noDoc: '(none yet)',
  },
  zh: {
    title: '会话 Seed',
    project: '项目',
    repository: '仓库',
    rules: '规则文件（行动前先读）',
    report: '报告协议',
    goal: '目标',
    acceptance: '验收标准',
    state: '状态',
    doc: '交接文档（先读）',
    branch: '分支',
    head: '当前 head',
    detached: '（游离 HEAD）',
    evidence: '证据（最近回执，新的在前）',
    auth: '交付授权',
    scope: '范围',
    retries: '剩余重试',
    of: '/',
    recorded: '记录的 head',
    pr: 'Pull request',
    checks: '检查',
    holds: '有效：会话切换、正常 commit、范围内的 rebase 都不需要重新确认。',
    void: '已失效',
    ask: '交付前请向用户重新申请授权。',
    constraints: '约束',
    none: '（无）',
    noDoc: '（尚无）',
  },
  ru: {
    title: 'Seed сессии',
    project: 'Проект',
    repository: 'Репозиторий',
    rules: 'Файлы правил (прочитать до начала работы)',
    report: 'Протокол отчёта',
    goal: 'Цель',
    acceptance: 'Критерии приёмки',
    state: 'Состояние',
    doc: 'Документ передачи (прочитать первым)',
    branch: 'Ветка',
    head: 'Head',
    detached: '(detached HEAD)',
    evidence: 'Доказательства (последние квитанции, новые сверху)',
    auth: 'Разрешение на поставку',
    scope: 'Рамки',
    retries: 'Осталось повторов',
    of: 'из',
    recorded: 'Записанный head',
    pr: 'Pull request',
    checks: 'Проверки',
    holds: 'Действует: смена сессии, обычный коммит или rebase в этих рамках не требуют нового подтверждения.',
    void: 'НЕДЕЙСТВИТЕЛЬНО',
    ask: 'Перед поставкой запросите у пользователя новое разрешение.',
    constraints: 'Ограничения',
    none: '(нет)',
    noDoc: '(пока нет)',
  },
};

function short(id: string | null | undefined): string {
  return id ? id.slice(0, 12) : '-';
}

function flat(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').trim();
}

/** One line of evidence for a receipt. */
export function receiptEvidence(r: Receipt): string {
  const parts = [`${r.kind}`, `${r.fromStatus} -> ${r.toStatus}`, `commit ${short(r.commit)}`];
  if (r.handoffDocHash) parts.push(`doc ${short(r.handoffDocHash)}`);
  if (r.receiptIds.length) parts.push(`cites ${r.receiptIds.join(', ')}`);
  if (r.kind === 'authorize' && r.scope) parts.push(`scope "${flat(r.scope)}"`);
  if (r.kind === 'retry' && r.reason) parts.push(`reason "${flat(r.reason)}"`);
  if (r.pr) parts.push(`PR #${r.pr.number}`);
  return `${r.id}: ${parts.join(', ')}`;
}

function checks(r: Receipt): string | null {
  if (!r.pr) return null;
  if (!r.pr.checks.length) return '-';
  return r.pr.checks.map((c) => `${c.name}=${(c.conclusion || c.status).toLowerCase()}`).join(', ');
}

/**
 * A remote URL as the same name on every machine (the seed must not depend on how a clone
 * spells its remote): `host/path` for the https, ssh and scp-like forms of one repository,
 * with credentials, port and `.git` dropped; a local path is kept as written, minus `.git`.
 */
export function remoteName(url: string): string {
  const u = url.trim().replace(/\/+$/, '');
  const withScheme = /^([a-z][a-z0-9+.-]*):\/\/(?:[^/@]*@)?([^/:]*)(?::\d*)?(\/.*)?$/i.exec(u);
  if (withScheme && withScheme[1].toLowerCase() !== 'file' && withScheme[2]) {
    return `${withScheme[2].toLowerCase()}${(withScheme[3] ?? '').replace(/\.git$/, '')}`;
  }
  const scp = /^(?:[^@/]+@)?([^/:@]+):(?!\/\/)\/*(.+)$/.exec(u);
  if (!withScheme && scp && !/^[a-z]:[\\/]/i.test(u)) return `${scp[1].toLowerCase()}/${scp[2].replace(/\.git$/, '')}`;
  return u.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1').replace(/\.git$/, '');
}

/** Renders the seed prompt. Same input, same bytes. */
export function renderSeed(s: SeedInput): string {
  const L = LABELS[s.lang];
  const out: string[] = [];
  out.push(`# ${L.title}: ${s.workItem}`, '');
  out.push(`${L.project}: ${flat(s.prefix.project)}`);
  out.push(`${L.repository}: ${flat(s.prefix.repository)}`);
  out.push(`${L.rules}: ${s.prefix.rules.length ? s.prefix.rules.join(', ') : L.none}`);
  out.push(`${L.report}: ${flat(s.prefix.report)}`, '');
  out.push(`${L.goal}: ${flat(s.title) || L.none}`);
  out.push(`${L.acceptance}:`);
  const acceptance = s.acceptance.replace(/\r/g, '').trim();
  out.push(...(acceptance ? acceptance.split('\n').map((l) => `  ${l.trimEnd()}`) : [`  ${L.none}`]), '');
  out.push(`${L.state}: ${s.state}`);
  out.push(`${L.doc}: ${s.handoffDoc ?? L.noDoc}`);
  out.push(`${L.branch}: ${s.branch ?? L.detached}`);
  out.push(`${L.head}: ${s.head ?? L.none}`, '');
  out.push(`${L.evidence}:`);
  const shown = s.receipts.slice(0, SEED_RECEIPTS);
  out.push(...(shown.length ? shown.map((r) => `- ${receiptEvidence(r)}`) : [`  ${L.none}`]), '');
  const a = s.authorization;
  if (!a) {
    out.push(`${L.auth}: ${L.none}`);
  } else {
    const r = a.receipt;
    out.push(`${L.auth}: ${r.id}${a.valid ? '' : ` (${L.void}: ${a.reason})`}`);
    out.push(`  ${L.scope}: ${flat(r.scope ?? '')}`);
    out.push(`  ${L.retries}: ${a.retriesLeft} ${L.of} ${r.retries ?? 0}`);
    out.push(`  ${L.recorded}: ${r.commit ?? L.none}`);
    if (r.pr) out.push(`  ${L.pr}: #${r.pr.number} ${r.pr.url} (${r.pr.baseRefName} <- ${short(r.pr.headRefOid)})`, `  ${L.checks}: ${checks(r)}`);
    out.push(`  ${a.valid ? L.holds : L.ask}`);
  }
  out.push('');
  out.push(`${L.constraints}:`);
  out.push(...(s.constraints.length ? s.constraints.map((c) => `- ${flat(c)}`) : [`  ${L.none}`]));
  return `${out.join('\n')}\n`;
}

/**
 * True when `after` differs from `before` only in lines where another commit id stands in
 * `before` for `head` in `after` (the SEED's head line, in any language).
 */
export function onlyHeadMoved(before: string, after: string, head: string): boolean {
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.length !== b.length) return false;
  let moved = false;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    const at = b[i].indexOf(head);
    if (at < 0) return false;
    const old = a[i].slice(at, at + head.length);
    if (!/^[0-9a-f]+$/.test(old) || a[i].slice(0, at) !== b[i].slice(0, at) || a[i].slice(at + head.length) !== b[i].slice(at + head.length)) return false;
    moved = true;
  }
  return moved;
}
