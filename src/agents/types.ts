/**
 * What the agents have in common once their formats are translated: the hook events we
 * handle, the input every agent's JSON is normalized to, and the answer a handler gives.
 * Each agent's own file (claude.ts, codex.ts, gemini.ts, cursor.ts, copilot.ts,
 * opencode.ts, droid.ts) knows its event names, its input fields, how to recognise that it
 * is the program calling a hook, and how its stdout must look.
 */
export type AgentName = 'claude' | 'codex' | 'gemini' | 'cursor' | 'copilot' | 'opencode' | 'droid';
export const AGENT_NAMES: readonly AgentName[] = ['claude', 'codex', 'gemini', 'cursor', 'copilot', 'opencode', 'droid'];

/**
 * The command every agent hook runs: `git-handoff-hook <event> --agent A`, the package's
 * shell executable (./hook-shell.ts), which answers an ordinary turn itself and hands the
 * rest to `git-handoff hook`. Earlier versions registered `git handoff hook <event> --agent A`.
 */
export const HOOK_COMMAND = 'git-handoff-hook';
export const OLD_HOOK_COMMAND = 'git handoff hook';

/** Our event names: `git-handoff-hook <event> --agent A`. */
export type AgentEvent = 'session-start' | 'user-prompt-submit' | 'pre-compact' | 'stop' | 'session-end';
export const AGENT_EVENTS: readonly AgentEvent[] = ['session-start', 'user-prompt-submit', 'pre-compact', 'stop', 'session-end'];

/** The opt-in line of the source design; its absence from the instruction file silences the hooks. */
export const TRIGGER_LINE = 'session handoff: read on start, write on end';

/** An agent's hook input, normalized. Unknown fields stay in `raw`. */
export interface AgentHookInput {
  sessionId: string | null;
  cwd: string | null;
  /** the agent's own event name, when it sent one */
  nativeEvent: string | null;
  /** session-start: startup | resume | clear | compact */
  source: string | null;
  /** user-prompt-submit: the user's message */
  prompt: string | null;
  /** session-end: why it ended */
  reason: string | null;
  /** pre-compact: manual | auto */
  trigger: string | null;
  /** stop: the agent is already continuing because a stop hook blocked */
  stopHookActive: boolean;
  raw: Record<string, unknown>;
}

/** A handler's answer, independent of the agent; every part optional. */
export interface AgentReply {
  /** text for the model's context */
  context?: string;
  /** block the stop; the model continues with this reason */
  blockStop?: string;
  /** a message shown to the user */
  userMessage?: string;
  /** problems that did not stop the answer: one stderr line each */
  warnings?: string[];
}

/** One hook entry an installer writes into the agent's settings. */
export interface HookEntrySpec {
  /** the agent's event name, e.g. SessionStart, BeforeAgent */
  native: string;
  event: AgentEvent;
  matcher?: string;
  /** this entry's timeout when it differs from the agent's (Codex clamps SessionEnd to 3 s) */
  timeout?: number;
}

export interface AgentAdapter {
  name: AgentName;
  /** the program's name for people */
  title: string;
  /** instruction files (relative to the work tree) that carry the trigger line; the first is where init adds it */
  instructionFiles: readonly string[];
  /** the events this agent has, with their native names */
  hooks: readonly HookEntrySpec[];
  /** the timeout written into the settings, in the agent's unit */
  timeout: number;
  /** variables naming a file whose `export` lines the agent's later shell commands source */
  envFileVars: readonly string[];
  /** variables the agent itself sets in its shell commands naming its session (so `write` records it) */
  sessionEnvVars: readonly string[];
  /** project files (relative to the work tree) where this agent reads hooks, to tell whether ours are installed */
  hookFiles: readonly string[];
  /**
   * Is this program the one running the hook? From its input and the environment it gives
   * hook processes (other agents run Claude Code's hooks too: one hook, one host).
   */
  detect(raw: Record<string, unknown>, env: NodeJS.ProcessEnv): boolean;
  /** other agents whose hook files this program runs as well (Cursor and Copilot CLI run Claude Code's) */
  runsHooksOf: readonly AgentName[];
  /**
   * Top-level input keys at least one of which is in every input `detect` takes for this
   * program's (the hook shell, ./hook-shell.ts, leaves such an input to Node when this program
   * answers "nothing" otherwise than the agent whose hooks it runs).
   */
  inputMarks?: readonly string[];
  /** can a user-prompt-submit answer add context for the model (Cursor's cannot) */
  promptContext: boolean;
  /** does this pre-compact event mean a compaction really happens (Gemini fires it on every turn) */
  compacts?(input: AgentHookInput): boolean;
  /** stdout for a reply ('' for nothing) */
  render(event: AgentEvent, reply: AgentReply): string;
}

type Obj = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

const firstString = (v: unknown): string | null => (Array.isArray(v) ? str(v[0]) : null);
/** session-start sources as each agent names them, ours on the right (Copilot: new) */
const SOURCES: Record<string, string> = { new: 'startup' };

/**
 * The fields every agent sends, under Claude Code's snake_case names (which Codex, Gemini
 * and Droid follow), Copilot CLI's camelCase ones (`sessionId`, `hookEventName`) and
 * Cursor's (`conversation_id`, `workspace_roots`).
 */
export function normalizeInput(raw: Obj): AgentHookInput {
  const source = str(raw.source) ?? str(raw.trigger_source);
  return {
    sessionId: str(raw.session_id) ?? str(raw.sessionId) ?? str(raw.conversation_id),
    cwd: str(raw.cwd) ?? firstString(raw.workspace_roots),
    nativeEvent: str(raw.hook_event_name) ?? str(raw.hookEventName),
    source: source ? (SOURCES[source] ?? source) : null,
    prompt: typeof raw.prompt === 'string' ? raw.prompt : null,
    reason: str(raw.reason),
    trigger: str(raw.trigger),
    // Cursor counts the follow-ups its stop hooks caused instead
    stopHookActive: raw.stop_hook_active === true || raw.stopHookActive === true || (typeof raw.loop_count === 'number' && raw.loop_count > 0),
    raw,
  };
}

/** Parses stdin; a problem is returned as a message, never thrown (hooks must not block the agent). */
export function parseHookInput(text: string): { input: AgentHookInput } | { problem: string } {
  if (text.trim() === '') return { problem: "no hook input on stdin (expected the agent's JSON)" };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    // V8 quotes the input, newlines and all: keep the message on one line, and short
    const why = (e as Error).message.replace(/\s+/g, ' ').trim();
    return { problem: `hook input is not JSON: ${why.length > 160 ? `${why.slice(0, 157)}...` : why}` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { problem: 'hook input is not a JSON object' };
  return { input: normalizeInput(raw as Obj) };
}

/** Claude Code's event names, which Codex and Droid share. */
export const CLAUDE_EVENT_NAMES: Record<AgentEvent, string> = {
  'session-start': 'SessionStart',
  'user-prompt-submit': 'UserPromptSubmit',
  'pre-compact': 'PreCompact',
  stop: 'Stop',
  'session-end': 'SessionEnd',
};

/**
 * An agent's hook entries from its names for our events, in our events' order (an event
 * it has no name for is left out); `timeouts` for entries whose timeout is not the agent's.
 */
export function hookEntries(native: Partial<Record<AgentEvent, string>>, timeouts: Partial<Record<AgentEvent, number>> = {}): HookEntrySpec[] {
  return AGENT_EVENTS.flatMap((event) => {
    const name = native[event];
    if (name === undefined) return [];
    const timeout = timeouts[event];
    return [timeout === undefined ? { native: name, event } : { native: name, event, timeout }];
  });
}

/** An answer as the one JSON line an agent reads on stdout; '' when it says nothing. */
export function jsonAnswer(out: Obj): string {
  return Object.keys(out).length ? `${JSON.stringify(out)}\n` : '';
}

/** Claude Code's answer shape, which Codex follows field for field. */
export function renderClaudeStyle(event: AgentEvent, reply: AgentReply, native: Record<AgentEvent, string> = CLAUDE_EVENT_NAMES): string {
  const out: Obj = {};
  if (event === 'session-start' || event === 'user-prompt-submit') {
    if (reply.context) out.hookSpecificOutput = { hookEventName: native[event], additionalContext: reply.context };
    if (reply.userMessage) out.systemMessage = reply.userMessage;
  } else if (event === 'stop') {
    if (reply.blockStop) Object.assign(out, { decision: 'block', reason: reply.blockStop });
    else if (reply.userMessage) out.systemMessage = reply.userMessage;
  } else if (event === 'pre-compact') {
    // PreCompact output reaches the user, not the model: no additionalContext there.
    const text = [reply.userMessage, reply.context].filter(Boolean).join('\n');
    if (text) out.systemMessage = text;
  }
  return jsonAnswer(out);
}

/** What the agents that took Claude Code's hook format share: its events and answers, 30 s timeouts, no one else's hooks. */
export const CLAUDE_STYLE = {
  hooks: hookEntries(CLAUDE_EVENT_NAMES),
  timeout: 30,
  runsHooksOf: [],
  promptContext: true,
  render: renderClaudeStyle,
} satisfies Partial<AgentAdapter>;
