/**
 * What `init --agent` changes in an agent's files, as pure text-in, text-out functions so
 * that `--dry-run` is the same plan and `uninstall` removes exactly what was added:
 * - the agent's settings JSON: our hook entries merged in, every existing key and hook kept,
 *   the file's indentation kept;
 * - Cursor's `.cursor/hooks.json` (version 1, flat entries): the same, in its shape;
 * - a file that is ours alone (Copilot CLI's `.github/hooks/git-handoff.json`, OpenCode's
 *   plugin): written whole, and removed whole;
 * - Codex's `.codex/config.toml`: nothing any more; the `[features] codex_hooks = true`
 *   line earlier versions added is taken out again (`disableCodexHooks`, codex-features.ts);
 * - the instruction file (CLAUDE.md, AGENTS.md, GEMINI.md): the trigger line, once.
 */
import { HOOK_COMMAND, OLD_HOOK_COMMAND, TRIGGER_LINE, type AgentAdapter, type AgentEvent } from './types.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The command a hook entry runs. */
export function hookCommand(event: AgentEvent, agent: string): string {
  return `${HOOK_COMMAND} ${event} --agent ${agent}`;
}

/** The command earlier versions registered, which starts Node on every turn; init replaces it. */
export function oldHookCommand(event: AgentEvent, agent: string): string {
  return `${OLD_HOOK_COMMAND} ${event} --agent ${agent}`;
}

/** Our hook command in either form (the one registered now, or the old one). */
export const OUR_COMMAND = /^(?:git-handoff-hook|git handoff hook) [a-z-]+ --agent [a-z]+$/;

export interface TextChange {
  /** the new text; null means "no file" */
  text: string | null;
  changed: boolean;
}

export interface JsonStyle {
  indent: string;
  finalNewline: boolean;
}

export function detectJsonStyle(text: string | null): JsonStyle {
  if (!text) return { indent: '  ', finalNewline: true };
  const m = /\n([ \t]+)"/.exec(text);
  return { indent: m ? m[1] : '  ', finalNewline: text.endsWith('\n') };
}

/** `value` as JSON in the indentation and final-newline style of `text` (the file it replaces). */
export function serializeLike(text: string | null, value: unknown): string {
  const style = detectJsonStyle(text);
  return `${JSON.stringify(value, null, style.indent)}${style.finalNewline ? '\n' : ''}`;
}

export class SettingsError extends Error {}

/** A project JSON file as an object (absent or blank: empty); anything else is a SettingsError naming the fix. */
export function parseJsonObject(text: string | null, path: string): Obj {
  if (text === null || text.trim() === '') return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new SettingsError(`${path} is not valid JSON (${(e as Error).message.split('\n')[0]}); fix it or move it aside, then run init again`);
  }
  if (!isObj(v)) throw new SettingsError(`${path} is not a JSON object`);
  return v;
}

function parseSettings(text: string | null, path: string): Obj {
  const v = parseJsonObject(text, path);
  if (v.hooks !== undefined && !isObj(v.hooks)) throw new SettingsError(`${path}: "hooks" is not an object`);
  return v;
}

function entry(adapter: AgentAdapter, event: AgentEvent, timeout = adapter.timeout): Obj {
  const e: Obj = { type: 'command', command: hookCommand(event, adapter.name), timeout };
  // Gemini identifies hooks by name in /hooks enable|disable.
  if (adapter.name === 'gemini') return { name: `git-handoff-${event}`, ...e };
  return e;
}

/** Is `h` a hook entry of ours for `agent` (any event)? */
const mineFor = (agent: string) => (h: unknown) => isObj(h) && isOurCommand(h.command, agent);

function isOurCommand(command: unknown, agent: string): boolean {
  return typeof command === 'string' && OUR_COMMAND.test(command) && command.endsWith(` --agent ${agent}`);
}

/**
 * How a settings file lays out an event's hook list. Claude Code, Codex, Gemini and Droid
 * nest entries in groups (`[{"matcher", "hooks": [entry]}]`); Cursor lists entries flat and
 * versions the file. Merging and unmerging are the same walk over either.
 */
interface HookListShape {
  /** does this event's list already run `command` */
  runs(list: unknown[], command: string): boolean;
  /** what is appended to an event's list for our hook */
  item(adapter: AgentAdapter, spec: AgentAdapter['hooks'][number]): Obj;
  /** the list without the entries `mine` picks, or null when it holds none of them */
  without(list: unknown[], mine: (h: unknown) => boolean): unknown[] | null;
  /** the whole file once our hooks are in */
  file(settings: Obj, hooks: Obj): Obj;
  /** keys a file may keep and still count as empty (so one init created is removed) */
  emptyKeys: readonly string[];
}

const GROUPS: HookListShape = {
  runs: (list, command) => list.some((g) => isObj(g) && Array.isArray(g.hooks) && g.hooks.some((h) => isObj(h) && h.command === command)),
  item: (adapter, spec) => ({ ...(spec.matcher ? { matcher: spec.matcher } : {}), hooks: [entry(adapter, spec.event, spec.timeout)] }),
  without(list, mine) {
    let changed = false;
    const kept: unknown[] = [];
    for (const g of list) {
      const rest = isObj(g) && Array.isArray(g.hooks) ? g.hooks.filter((h) => !mine(h)) : null;
      if (!rest || rest.length === (g as Obj & { hooks: unknown[] }).hooks.length) kept.push(g);
      else {
        changed = true;
        if (rest.length) kept.push({ ...(g as Obj), hooks: rest });
      }
    }
    return changed ? kept : null;
  },
  file: (settings, hooks) => ({ ...settings, hooks }),
  emptyKeys: [],
};

const FLAT: HookListShape = {
  runs: (list, command) => list.some((h) => isObj(h) && h.command === command),
  item: (adapter, spec) => ({ command: hookCommand(spec.event, adapter.name), timeout: spec.timeout ?? adapter.timeout }),
  without(list, mine) {
    const kept = list.filter((h) => !mine(h));
    return kept.length === list.length ? null : kept;
  },
  file: (settings, hooks) => (settings.version === undefined ? { version: 1, ...settings, hooks } : { ...settings, hooks }),
  emptyKeys: ['version'],
};

function mergeHooks(text: string | null, adapter: AgentAdapter, path: string, shape: HookListShape): TextChange {
  const settings = parseSettings(text, path);
  const hooks: Obj = isObj(settings.hooks) ? { ...settings.hooks } : {};
  let changed = false;
  for (const spec of adapter.hooks) {
    let current = hooks[spec.native];
    if (current !== undefined && !Array.isArray(current)) throw new SettingsError(`${path}: hooks.${spec.native} is not a list`);
    // the old form of the same hook goes: one entry per event, in the form that starts no Node
    const old = oldHookCommand(spec.event, adapter.name);
    const withoutOld = current === undefined ? null : shape.without(current as unknown[], (h) => isObj(h) && h.command === old);
    if (withoutOld !== null) {
      current = withoutOld;
      hooks[spec.native] = withoutOld;
      changed = true;
    }
    if (current !== undefined && shape.runs(current as unknown[], hookCommand(spec.event, adapter.name))) continue;
    hooks[spec.native] = [...((current as unknown[]) ?? []), shape.item(adapter, spec)];
    changed = true;
  }
  if (!changed) return { text, changed: false };
  return { text: serializeLike(text, shape.file(settings, hooks)), changed: true };
}

/**
 * Removes our entries, and a group, an event list or `hooks` left empty by that; nothing
 * else (an event list that was empty before stays). A file left empty that init created is removed.
 */
function unmergeHooks(text: string | null, adapter: AgentAdapter, path: string, opts: { createdByInit: boolean }, shape: HookListShape): TextChange {
  if (text === null) return { text, changed: false };
  const settings = parseSettings(text, path);
  if (!isObj(settings.hooks)) return { text, changed: false };
  const hooks: Obj = { ...settings.hooks };
  const mine = mineFor(adapter.name);
  let changed = false;
  for (const [event, list] of Object.entries(hooks)) {
    const kept = Array.isArray(list) ? shape.without(list, mine) : null;
    if (kept === null) continue;
    changed = true;
    if (kept.length) hooks[event] = kept;
    else delete hooks[event];
  }
  if (!changed) return { text, changed: false };
  const out: Obj = { ...settings };
  if (Object.keys(hooks).length) out.hooks = hooks;
  else delete out.hooks;
  if (opts.createdByInit && Object.keys(out).every((k) => shape.emptyKeys.includes(k))) return { text: null, changed: true };
  return { text: serializeLike(text, out), changed: true };
}

/** Adds our hook entries to the agent's settings; existing keys and hooks are kept as they are. */
export function mergeAgentSettings(text: string | null, adapter: AgentAdapter, path: string): TextChange {
  return mergeHooks(text, adapter, path, GROUPS);
}

/** Removes our hook entries from the agent's settings (see `unmergeHooks`). */
export function unmergeAgentSettings(text: string | null, adapter: AgentAdapter, path: string, opts: { createdByInit: boolean }): TextChange {
  return unmergeHooks(text, adapter, path, opts, GROUPS);
}

/** Does this instruction text carry the trigger line? */
export function hasTrigger(text: string | null): boolean {
  return (
    text !== null &&
    text
      .toLowerCase()
      .replace(/[ \t]+/g, ' ')
      .includes(TRIGGER_LINE)
  );
}

/** Adds the trigger line once, at the end. */
export function addTriggerLine(text: string | null): TextChange {
  if (hasTrigger(text)) return { text, changed: false };
  const src = text ?? '';
  const sep = src === '' ? '' : src.endsWith('\n\n') ? '' : src.endsWith('\n') ? '\n' : '\n\n';
  return { text: `${src}${sep}${TRIGGER_LINE}\n`, changed: true };
}

/** Removes the trigger line `addTriggerLine` added (and the blank line it put before it). */
export function removeTriggerLine(text: string | null, createdByInit: boolean): TextChange {
  if (text === null || !text.includes(TRIGGER_LINE)) return { text, changed: false };
  let out = text.replace(new RegExp(`(\\n\\n|\\n|^)${TRIGGER_LINE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n?`), (_m, pre: string) =>
    pre === '\n\n' ? '\n' : pre === '\n' ? '\n' : '',
  );
  if (out === text) return { text, changed: false };
  if (createdByInit && out.trim() === '') return { text: null, changed: true };
  if (text.endsWith('\n') && !out.endsWith('\n') && out !== '') out += '\n';
  return { text: out, changed: true };
}

/**
 * Cursor's `.cursor/hooks.json`: `{"version": 1, "hooks": {"sessionStart": [{"command",
 * "timeout"}]}}`; our entries added, every other key and entry kept.
 */
export function mergeCursorHooks(text: string | null, adapter: AgentAdapter, path: string): TextChange {
  return mergeHooks(text, adapter, path, FLAT);
}

/** Undoes `mergeCursorHooks`; a file left as `{"version": 1}` that init created is removed. */
export function unmergeCursorHooks(text: string | null, adapter: AgentAdapter, path: string, opts: { createdByInit: boolean }): TextChange {
  return unmergeHooks(text, adapter, path, opts, FLAT);
}

/**
 * A file that is ours alone: created (or brought up to date when it is ours), refused when
 * something else sits at that path.
 */
export function writeOwnFile(text: string | null, content: string, path: string, isOurs: (text: string) => boolean): TextChange {
  if (text === content) return { text, changed: false };
  if (text !== null && text.trim() !== '' && !isOurs(text))
    throw new SettingsError(`${path} exists and is not git-handoff's; move it aside, then run init again`);
  return { text: content, changed: true };
}

/** Copilot CLI's `.github/hooks/git-handoff.json`: version 1, one command entry per event. */
export function copilotHooksFile(adapter: AgentAdapter): string {
  const hooks: Obj = {};
  for (const spec of adapter.hooks)
    hooks[spec.native] = [{ type: 'command', bash: hookCommand(spec.event, adapter.name), timeoutSec: spec.timeout ?? adapter.timeout }];
  return `${JSON.stringify({ version: 1, hooks }, null, 2)}\n`;
}

/** Is this Copilot hooks file ours (every entry runs one of our commands)? */
export function isOurCopilotFile(text: string, adapter: AgentAdapter): boolean {
  try {
    const v = JSON.parse(text);
    if (!isObj(v) || !isObj(v.hooks)) return false;
    const entries = Object.values(v.hooks).flatMap((l) => (Array.isArray(l) ? l : [null]));
    return entries.length > 0 && entries.every((h) => isObj(h) && isOurCommand(h.bash, adapter.name));
  } catch {
    return false;
  }
}

/**
 * A hooks file that is the event map itself (Droid's `.factory/hooks.json`:
 * `{"SessionStart": [{"hooks": [...]}]}`, Claude-style groups without the `hooks` key
 * around them); merged and unmerged as `mergeAgentSettings` does.
 */
export function mergeFlatHooks(text: string | null, adapter: AgentAdapter, path: string): TextChange {
  const wrapped = text === null || text.trim() === '' ? null : `{"hooks":${text}}`;
  const r = mergeAgentSettings(wrapped, adapter, path);
  if (!r.changed) return { text, changed: false };
  return { text: serializeLike(text, (JSON.parse(r.text!) as Obj).hooks), changed: true };
}

export function unmergeFlatHooks(text: string | null, adapter: AgentAdapter, path: string, opts: { createdByInit: boolean }): TextChange {
  if (text === null) return { text, changed: false };
  const r = unmergeAgentSettings(`{"hooks":${text}}`, adapter, path, { createdByInit: false });
  if (!r.changed) return { text, changed: false };
  const hooks = ((JSON.parse(r.text!) as Obj).hooks as Obj | undefined) ?? {};
  if (opts.createdByInit && Object.keys(hooks).length === 0) return { text: null, changed: true };
  return { text: serializeLike(text, hooks), changed: true };
}
