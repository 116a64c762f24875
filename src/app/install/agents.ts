/**
 * Installer: agent hooks (`init --agent claude|codex|gemini`, issue 5). For each agent named:
 * its hook entries merged into its settings file (every existing key and hook kept), the
 * trigger line `session handoff: read on start, write on end` added once to its instruction
 * file, and for Codex the feature switch in `.codex/config.toml`. Claude Code's personal
 * `.claude/settings.local.json` is the default (kept out of git through `.git/info/exclude`
 * unless already ignored); `--shared` uses the committed `.claude/settings.json` instead.
 * The text transforms are pure (src/agents/settings.ts); `undo` uses them to take our part
 * out of a file someone changed after init.
 */
import { join } from 'node:path';
import { AGENTS } from '../../agents/index.js';
import { AGENT_NAMES, type AgentAdapter, type AgentName } from '../../agents/types.js';
import {
  addTriggerLine,
  disableCodexHooks,
  enableCodexHooks,
  hasTrigger,
  mergeAgentSettings,
  removeTriggerLine,
  SettingsError,
  unmergeAgentSettings,
  type TextChange,
} from '../../agents/settings.js';
import { Refused } from '../../errors.js';
import type { Installer, InstallOptions, PlanContext, RecordedFile, Step } from './types.js';

/** How to take an agent file change back (stored in install.json). */
type Recipe =
  | { part: 'settings'; agent: AgentName; created: boolean }
  | { part: 'codex-feature'; previous: string | null; created: boolean }
  | { part: 'trigger'; created: boolean }
  | { part: 'exclude'; line: string };

const LOCAL = '.claude/settings.local.json';
const SHARED = '.claude/settings.json';

function settingsPath(agent: AgentName, shared: boolean): string {
  if (agent === 'claude') return shared ? SHARED : LOCAL;
  return agent === 'codex' ? '.codex/hooks.json' : '.gemini/settings.json';
}

/** The agents named with `--agent` (repeatable, or comma-separated). */
export function agentsWanted(options: InstallOptions): AgentName[] {
  const raw = options.agent;
  const list = (Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : []).flatMap((a) => a.split(',')).map((a) => a.trim()).filter(Boolean);
  for (const a of list) if (!(AGENT_NAMES as readonly string[]).includes(a)) throw new Refused(`init: unknown agent '${a}' (claude, codex or gemini)`);
  return [...new Set(list)] as AgentName[];
}

function text(ctx: PlanContext, path: string): string | null {
  return ctx.read(path)?.toString('utf8') ?? null;
}

function fileStep(path: string, change: TextChange, summary: string, recipe: Recipe): Step {
  return { kind: 'file', path, content: change.text === null ? null : Buffer.from(change.text, 'utf8'), summary, recipe };
}

function planAgent(ctx: PlanContext, adapter: AgentAdapter): Step[] {
  const top = ctx.repo.workTree!;
  const steps: Step[] = [];
  const shared = Boolean(ctx.options.shared);
  const rel = settingsPath(adapter.name, shared);
  const abs = join(top, rel);
  const before = text(ctx, abs);
  let merged: TextChange;
  try {
    merged = mergeAgentSettings(before, adapter, rel);
  } catch (e) {
    if (e instanceof SettingsError) throw new Refused(`init --agent ${adapter.name}: ${e.message}`);
    throw e;
  }
  if (merged.changed) {
    steps.push(fileStep(abs, merged, `${before === null ? 'create' : 'add the git-handoff hooks to'} ${rel} (${adapter.hooks.map((h) => h.native).join(', ')})`, { part: 'settings', agent: adapter.name, created: before === null }));
  }
  if (adapter.name === 'claude') {
    // One place only: moving between --shared and the personal file takes our hooks out of the other.
    const otherRel = shared ? LOCAL : SHARED;
    const other = join(top, otherRel);
    const otherText = text(ctx, other);
    const out = otherText === null ? null : unmergeAgentSettings(otherText, adapter, otherRel, { createdByInit: false });
    if (out?.changed) steps.push(fileStep(other, out, `move the git-handoff hooks out of ${otherRel}`, { part: 'settings', agent: 'claude', created: false }));
    if (!shared && merged.changed) steps.push(...planExclude(ctx, LOCAL));
  }
  if (adapter.name === 'codex') {
    const cfg = join(top, '.codex/config.toml');
    const cfgText = text(ctx, cfg);
    const on = enableCodexHooks(cfgText);
    if (on.changed) steps.push(fileStep(cfg, on, 'turn Codex hooks on: [features] codex_hooks = true in .codex/config.toml', { part: 'codex-feature', previous: on.previous, created: cfgText === null }));
  }
  const present = adapter.instructionFiles.some((f) => hasTrigger(text(ctx, join(top, f))));
  if (!present) {
    const file = join(top, adapter.instructionFiles[0]);
    const current = text(ctx, file);
    steps.push(fileStep(file, addTriggerLine(current), `add the trigger line 'session handoff: read on start, write on end' to ${adapter.instructionFiles[0]} (delete it to turn the agent hooks off)`, { part: 'trigger', created: current === null }));
  }
  if (steps.length && adapter.name === 'codex') steps.push({ kind: 'notice', summary: 'Codex asks you to review and trust new hooks before they run (/hooks)' });
  if (steps.length && adapter.name === 'gemini') steps.push({ kind: 'notice', summary: 'Gemini CLI runs project hooks only in a trusted folder' });
  return steps;
}

/** Keeps the personal settings file out of git (Claude Code's own convention for it). */
function planExclude(ctx: PlanContext, rel: string): Step[] {
  const top = ctx.repo.workTree!;
  const ignored = ['.gitignore', '.claude/.gitignore'].some((f) => (text(ctx, join(top, f)) ?? '').split('\n').some((l) => /settings\.local\.json\s*$/.test(l.trim())));
  const exclude = join(ctx.repo.paths.commonDir, 'info', 'exclude');
  const current = text(ctx, exclude) ?? '';
  const line = `/${rel}`;
  if (ignored || current.split('\n').some((l) => l.trim() === line || l.trim() === rel)) return [];
  const next = `${current}${current === '' || current.endsWith('\n') ? '' : '\n'}${line}\n`;
  return [{ kind: 'file', path: exclude, content: Buffer.from(next), summary: `keep ${rel} out of git (.git/info/exclude)`, recipe: { part: 'exclude', line } satisfies Recipe }];
}

function undo(file: RecordedFile, current: Buffer | null): Buffer | null | 'keep' {
  const recipe = file.recipe as Recipe | undefined;
  if (!recipe || current === null) return 'keep';
  const now = current.toString('utf8');
  let out: TextChange;
  try {
    if (recipe.part === 'settings') out = unmergeAgentSettings(now, AGENTS[recipe.agent], file.path, { createdByInit: recipe.created });
    else if (recipe.part === 'codex-feature') out = disableCodexHooks(now, recipe.previous, recipe.created);
    else if (recipe.part === 'trigger') out = removeTriggerLine(now, recipe.created);
    else {
      const lines = now.split('\n');
      const i = lines.indexOf(recipe.line);
      if (i < 0) return 'keep';
      lines.splice(i, 1);
      out = { text: lines.join('\n'), changed: true };
    }
  } catch {
    return 'keep'; // no longer JSON we can read: leave it to the user
  }
  if (!out.changed) return 'keep';
  return out.text === null ? null : Buffer.from(out.text, 'utf8');
}

/**
 * Without an install record: our hook entries out of the agent's settings files (they are
 * clearly ours). The trigger line and Codex's feature switch stay: a person may have put
 * them there.
 */
function orphans(ctx: PlanContext, adapter: AgentAdapter): Step[] {
  if (!ctx.repo.workTree) return [];
  const paths = adapter.name === 'claude' ? [LOCAL, SHARED] : [settingsPath(adapter.name, false)];
  const steps: Step[] = [];
  for (const rel of paths) {
    const abs = join(ctx.repo.workTree, rel);
    try {
      const out = unmergeAgentSettings(text(ctx, abs), adapter, rel, { createdByInit: false });
      if (out.changed) steps.push(fileStep(abs, out, `take the git-handoff hooks out of ${rel}`, { part: 'settings', agent: adapter.name, created: false }));
    } catch {
      /* not JSON we can read: leave it */
    }
  }
  return steps;
}

function installer(name: AgentName, withOptions: boolean): Installer {
  return {
    id: `agent-${name}`,
    ...(withOptions
      ? {
          options: {
            agent: { type: 'string', multiple: true, arg: 'claude|codex|gemini', describe: "install an agent's hooks and its trigger line (repeatable)" },
            shared: { type: 'boolean', describe: "with --agent claude: .claude/settings.json (committed) instead of .claude/settings.local.json" },
          },
        }
      : {}),
    wanted: (options) => agentsWanted(options).includes(name),
    plan: async (ctx) => planAgent(ctx, AGENTS[name]),
    undo,
    orphans: async (ctx) => orphans(ctx, AGENTS[name]),
  };
}

/** One installer per agent, so install.json says whose each change is. */
export const agentInstallers: Installer[] = AGENT_NAMES.map((n, i) => installer(n, i === 0));
