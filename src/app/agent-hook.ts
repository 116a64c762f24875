/**
 * `git handoff hook <event> --agent A`: the agent hooks (registered as `git-handoff-hook <event> --agent A`,
 * whose shell answers an ordinary prompt or stop itself: src/agents/hook-shell.ts). Gather (the agent's
 * JSON, the recorded session, the latest handoff) -> decide (`core/agent-session.ts`) ->
 * act (store the session, answer in the agent's format). Never in the agent's way: bad
 * input or an internal error is one line on stderr, nothing on stdout, exit 0. Silent in a
 * repository whose instruction file lacks the trigger line, and with HANDOFF_SKIP=1.
 */
import { authorOf, isUsersOwn } from '../core/provenance.js';
import { appendFileSync, readFileSync } from 'node:fs';
import { Repo } from '../git/repo.js';
import { HandoffStore } from '../git/handoff-store.js';
import { readSession, readSessions, removeSession, writeSession } from '../state/session-store.js';
import { resolveIdentities, isoUtc } from '../git/identity.js';
import { AGENT_LIST, AGENTS, agentEvent, detectHost, isAgentName } from '../agents/index.js';
import { hasTrigger } from '../agents/settings.js';
import { HOOK_COMMAND, OLD_HOOK_COMMAND, parseHookInput, type AgentAdapter, type AgentEvent, type AgentHookInput, type AgentReply } from '../agents/types.js';
import { currentSession, type SessionState } from '../core/session.js';
import { classifyPhrase } from '../core/phrases.js';
import { decidePrompt, decideSessionEnd, decideSessionStart, decideStop, finishedSessions, previousSession, sessionFor } from '../core/agent-session.js';
import { askScopeContext, preCompactReminder, sessionStartContext, stopBlockReason, writeNowContext } from '../core/agent-messages.js';
import { scanText } from '../core/secrets.js';
import { mask } from '../core/secret-fields.js';
import { currentDivergence, showHandoff } from './show.js';
import { bookmarkText, divergenceReport, joinCommand, notices } from './show-report.js';
import { isOverBudget, orOverBudget, skippedLine } from './hook-budget.js';
import { loadPhrases } from './phrases-policy.js';
import { NotARepository, UntrustedRepository, isHandoffError } from '../errors.js';
import { visibleDeep } from '../core/visible-text.js';
import { readWorkTreeFileOrNull } from '../state/bounded-file.js';

export interface AgentHookCall {
  agent: string;
  event: string;
  stdin: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export interface AgentHookOutcome {
  /** exactly what the agent reads on stdout ('' for nothing) */
  stdout: string;
  /** lines for stderr */
  stderr: string[];
}

const SILENT: AgentHookOutcome = { stdout: '', stderr: [] };

/** Runs one agent hook; never throws. */
export async function runAgentHook(call: AgentHookCall): Promise<AgentHookOutcome> {
  if (call.env.HANDOFF_SKIP === '1') return SILENT;
  const fail = (msg: string): AgentHookOutcome => ({ stdout: '', stderr: [`git handoff: hook ${call.event} --agent ${call.agent}: ${msg}`] });
  if (!isAgentName(call.agent)) return fail(`unknown agent '${call.agent}' (${AGENT_LIST})`);
  const named = AGENTS[call.agent];
  const event = agentEvent(named, call.event);
  if (!event) return fail(`unknown event '${call.event}'`);
  const parsed = parseHookInput(call.stdin);
  if ('problem' in parsed) return fail(parsed.problem);
  let repo: Repo;
  try {
    repo = await Repo.discover(parsed.input.cwd ?? call.cwd);
  } catch (e) {
    // An agent outside a repository, or in one git refuses (safe.directory): nothing to do.
    if (isHandoffError(e, NotARepository) || isHandoffError(e, UntrustedRepository)) return SILENT;
    return fail((e as Error).message);
  }
  try {
    if (!repo.workTree) return SILENT;
    // One hook, one host: another program running this agent's hooks gets its own format,
    // and stays silent here when its own hooks are installed too (they answer; never twice).
    const adapter = detectHost(named, parsed.input.raw, call.env);
    if (adapter !== named && hasOwnHooks(repo.workTree, adapter)) return SILENT;
    if (!hasTriggerLine(repo.workTree, named) && !hasTriggerLine(repo.workTree, adapter)) return SILENT;
    const reply = await HANDLERS[event](repo, adapter, parsed.input, call.env);
    return {
      stdout: adapter.render(event, visibleDeep(reply)),
      stderr: (reply.warnings ?? []).map((w) => `git handoff: hook ${call.event} --agent ${call.agent}: ${w}`),
    };
  } catch (e) {
    return fail(`${(e as Error).message ?? String(e)}`.split('\n')[0]);
  } finally {
    repo.close();
  }
}

/** The opt-in: the agent's instruction file carries the trigger line (deleting it is the off switch). */
export function hasTriggerLine(workTree: string, adapter: AgentAdapter): boolean {
  return adapter.instructionFiles.some((f) => {
    try {
      const bytes = readWorkTreeFileOrNull(workTree, f);
      return bytes !== null && hasTrigger(bytes.toString('utf8'));
    } catch {
      return false;
    }
  });
}

/** Are this agent's own git-handoff hooks installed in the work tree? */
export function hasOwnHooks(workTree: string, adapter: AgentAdapter): boolean {
  const mark = `--agent ${adapter.name}`;
  return adapter.hookFiles.some((f) => {
    try {
      const text = readWorkTreeFileOrNull(workTree, f)?.toString('utf8') ?? '';
      return (text.includes(`${HOOK_COMMAND} `) || text.includes(`${OLD_HOOK_COMMAND} `)) && text.includes(mark);
    } catch {
      return false;
    }
  });
}

type Handler = (repo: Repo, adapter: AgentAdapter, input: AgentHookInput, env: NodeJS.ProcessEnv) => Promise<AgentReply>;

async function clock(repo: Repo): Promise<string> {
  return isoUtc((await resolveIdentities(repo)).committer.timestamp);
}

function sessionIdOf(input: AgentHookInput, adapter: AgentAdapter, now: string): string {
  return input.sessionId ?? `${adapter.name}-${now}`;
}

/** This session's record: by the id the agent sent, else the current one (an agent that sent none). */
function ownSession(repo: Repo, input: AgentHookInput, env: NodeJS.ProcessEnv): SessionState | null {
  return input.sessionId ? readSession(repo.gitDir, input.sessionId) : currentSession(readSessions(repo.gitDir), env.HANDOFF_SESSION_ID);
}

/** Stores a session's own record, marking it heard from now (see `finishedSessions`). */
const saveSession = (repo: Repo, s: SessionState, now: string) => writeSession(repo.gitDir, { ...s, seen_at: now });

/**
 * Did the session write a handoff? A version on this branch (or carrying the session's id)
 * committed at or after the session's start. Our versions name their branch in a trailer,
 * so most are judged without reading the note.
 */
export async function wroteHandoffSince(repo: Repo, state: SessionState): Promise<boolean> {
  if (state.wrote_handoff) return true;
  const since = Math.floor(Date.parse(state.started_at) / 1000);
  if (Number.isNaN(since)) return false;
  const store = new HandoffStore(repo);
  const branch = repo.headBranch();
  for await (const v of store.versions()) {
    if (v.timestamp < since) break;
    if (v.branch === branch) return true;
    const r = await store.read(v);
    if (r.branch === branch || (r.valid && r.handoff.session_id === state.session_id)) return true;
  }
  return false;
}

const sessionStart: Handler = async (repo, adapter, input, env) => {
  const now = await clock(repo);
  const sessionId = sessionIdOf(input, adapter, now);
  const records = readSessions(repo.gitDir);
  const own = records.find((r) => r.session_id === sessionId) ?? null;
  // A new session judges the sessions that are over, not those running beside it.
  const finished = own
    ? []
    : finishedSessions(
        records.filter((r) => r.session_id !== sessionId),
        now,
      );
  const previous = previousSession(finished);
  const previousWrote = previous ? await wroteHandoffSince(repo, previous) : null;
  const d = decideSessionStart(own, { sessionId, agent: adapter.name, now, head: await repo.headCommit(), previousWrote });
  // A session starts up once: a second startup of the same id (two agents' hooks run by
  // one program) gets no second bookmark. Resume, clear and compact do get it again.
  const again = own !== null && (input.source ?? 'startup') === 'startup' && own.bookmark_given === true;
  const state: SessionState = { ...d.state, bookmark_given: true };
  saveSession(repo, state, now);
  for (const s of finished) removeSession(repo.gitDir, s.session_id);
  const warnings: string[] = [];
  // The exported id lands in every handoff and receipt the session writes: scanned like them.
  const leak = scanText(sessionId)[0];
  if (leak) warnings.push(`the session id holds a secret (${leak.kind} ${mask(leak.value, leak.keep)}); not exported, so no handoff records it`);
  else {
    try {
      exportSession(adapter, env, sessionId);
    } catch (e) {
      // the bookmark still reaches the model; only `write` will not know the session id
      warnings.push(`cannot export the session id: ${((e as Error).message ?? String(e)).split('\n')[0]}`);
    }
  }

  if (again) return warnings.length ? { warnings } : {};
  let r: Awaited<ReturnType<typeof showHandoff>>;
  try {
    r = await showHandoff(repo, {});
  } catch (e) {
    if (!isOverBudget(e)) throw e;
    const line = skippedLine("the previous session's handoff", e);
    return { context: `git-handoff: ${line}.`, warnings: [...warnings, line] };
  }
  // What the session was given is what its whole-document writes continue (docs/format.md "Lineage").
  if (r.version) saveSession(repo, { ...state, shown_version: r.version.id }, now);
  const context = sessionStartContext({
    bookmark: bookmarkText(r),
    notices: notices(r),
    foreignAuthor: r.provenance && !isUsersOwn(r.provenance) ? authorOf(r.provenance) : null,
    visibility: r.version?.visibility,
    previousEndedWithout: d.previousEndedWithout,
    relay: env.HANDOFF_RELAY_ID ? { id: env.HANDOFF_RELAY_ID, promptFile: env.HANDOFF_PROMPT_FILE ?? null } : null,
  });
  return { ...(context ? { context } : {}), ...(warnings.length ? { warnings } : {}) };
};

/** Claude Code and Droid source `export` lines from their env file (`CLAUDE_ENV_FILE`) into the session's shell commands; Codex has none (its shell commands get `CODEX_THREAD_ID`). */
function exportSession(adapter: AgentAdapter, env: NodeJS.ProcessEnv, sessionId: string): void {
  const file = adapter.envFileVars.map((v) => env[v]).find((v) => v);
  if (!file) return;
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const lines = [`export HANDOFF_SESSION_ID=${q(sessionId)}`, `export HANDOFF_AGENT=${q(adapter.name)}`];
  let existing = '';
  try {
    existing = readFileSync(file, 'utf8');
  } catch {
    /* a new file */
  }
  const missing = lines.filter((l) => !existing.split('\n').includes(l));
  if (missing.length) appendFileSync(file, `${existing && !existing.endsWith('\n') ? '\n' : ''}${missing.join('\n')}\n`);
}

const userPromptSubmit: Handler = async (repo, adapter, input) => {
  if (input.prompt === null) return {};
  const phrases = await loadPhrases(repo);
  const c = classifyPhrase(input.prompt, phrases.lists);
  if (c.class !== 'session-end' && c.class !== 'ambiguous') return {};
  const now = await clock(repo);
  const id = sessionIdOf(input, adapter, now);
  const own = readSession(repo.gitDir, id);
  const d = decidePrompt(sessionFor(own, id, adapter.name, now, await repo.headCommit()), c.class, now);
  if (d.state !== own) saveSession(repo, d.state, now);
  if (d.answer.kind === 'write-now') {
    // Two heads: the session's write should join them, not leave the other session's work beside it.
    // Over the hook's budget, the divergence line is skipped: the "write now" context still goes.
    const got = await orOverBudget(() => currentDivergence(repo));
    const dv = 'value' in got ? got.value : null;
    const skipped = 'skipped' in got ? skippedLine('the check for sessions that diverged', got.skipped) : null;
    const diverged = dv && {
      lines: divergenceReport(dv),
      join: joinCommand(dv.latest, dv.diverged),
    };
    return { context: writeNowContext(c.matched, d.answer.proposeRitual, diverged), ...(skipped ? { warnings: [skipped] } : {}) };
  }
  return { context: askScopeContext(c.matched) };
};

const stop: Handler = async (repo, _adapter, input, env) => {
  if (input.stopHookActive) return {};
  const state = ownSession(repo, input, env);
  if (!state) return {};
  // Stop ends every turn: the session is heard from, so no new session takes it for over.
  const now = await clock(repo);
  if (!state.end_requested_at) {
    saveSession(repo, state, now);
    return {};
  }
  const wrote = await wroteHandoffSince(repo, state);
  const d = decideStop(state, { stopHookActive: input.stopHookActive, wroteHandoff: wrote });
  const next = d.block && d.state ? d.state : state;
  saveSession(repo, wrote ? { ...next, wrote_handoff: true } : next, now);
  return d.block ? { blockStop: stopBlockReason() } : {};
};

const preCompact: Handler = async (repo, adapter, input) => {
  // Gemini fires its PreCompress on every turn, before deciding whether to compress
  if (adapter.compacts && !adapter.compacts(input)) return {};
  const r = await showHandoff(repo, {});
  return r.due ? { userMessage: preCompactReminder(r.due) } : {};
};

const sessionEnd: Handler = async (repo, _adapter, input, env) => {
  const own = ownSession(repo, input, env);
  if (!own) return {};
  const now = await clock(repo);
  saveSession(repo, decideSessionEnd(own, { now, wroteHandoff: await wroteHandoffSince(repo, own) }), now);
  return {};
};

const HANDLERS: Record<AgentEvent, Handler> = {
  'session-start': sessionStart,
  'user-prompt-submit': userPromptSubmit,
  'pre-compact': preCompact,
  stop,
  'session-end': sessionEnd,
};
