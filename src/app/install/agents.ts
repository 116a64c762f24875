/**
 * Installer: agent hooks (`init --agent NAME`). For each agent named: its
 * hook entries in its own project files (every existing key and hook kept), and the trigger
 * line `session handoff: read on start, write on end` added once to its instruction file.
 * Where an agent has a personal file (Claude Code's `.claude/settings.local.json`, Droid's
 * `.factory/settings.local.json`) that is the default, kept out of git through
 * `.git/info/exclude` unless already ignored, and `--shared` uses the committed file; where
 * it has one file only (Cursor, Copilot CLI, OpenCode), a file init creates is kept out of
 * git the same way unless `--shared`. Each agent is one entry of `AGENT_FILES` (agent-files.ts).
 * The text transforms are pure (src/agents/settings.ts); `undo` uses them to take our part
 * out of a file someone changed after init.
 */
import { join } from 'node:path';
import { AGENT_LIST, AGENTS } from '../../agents/index.js';
import { AGENT_NAMES, HOOK_COMMAND, OLD_HOOK_COMMAND, type AgentAdapter, type AgentName } from '../../agents/types.js';
import {
  addTriggerLine,
  hasTrigger,
  mergeAgentSettings,
  mergeCursorHooks,
  mergeFlatHooks,
  unmergeFlatHooks,
  removeTriggerLine,
  SettingsError,
  unmergeAgentSettings,
  unmergeCursorHooks,
  writeOwnFile,
  type TextChange,
} from '../../agents/settings.js';
import { disableCodexHooks } from '../../agents/codex-features.js';
import { addMcpServer, MCP_REGISTRATIONS, removeMcpServer } from '../../agents/mcp-config.js';
import { readInstallRecord } from '../../state/install-files.js';
import { InvalidAgentSettings, UnknownAgent } from '../../errors.js';
import { nearestName } from '../../core/nearest-name.js';
import type { Installer, InstallOptions, InstallRecord, PlanContext, RecordedFile, Step } from './types.js';
import { AGENT_FILES, formatOf, type AgentFiles } from './agent-files.js';

/** How to take an agent file change back (stored in install.json). */
type Recipe =
  | { part: 'settings'; agent: AgentName; created: boolean }
  | { part: 'cursor'; agent: AgentName; created: boolean }
  | { part: 'flat'; agent: AgentName; created: boolean }
  | { part: 'own-file'; agent: AgentName }
  | { part: 'codex-feature'; previous: string | null; created: boolean }
  | { part: 'trigger'; created: boolean }
  | { part: 'exclude'; line: string }
  /** our MCP server entry; `then`: what an earlier step of the same init did to the same file */
  | { part: 'mcp'; agent: AgentName; created: boolean; then?: Recipe };

/** The agents named with `--agent` (repeatable, or comma-separated). */
export function agentsWanted(options: InstallOptions): AgentName[] {
  const raw = options.agent;
  const list = (Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [])
    .flatMap((a) => a.split(','))
    .map((a) => a.trim())
    .filter(Boolean);
  for (const a of list) {
    if ((AGENT_NAMES as readonly string[]).includes(a)) continue;
    const near = nearestName(a, [...AGENT_NAMES]);
    throw new UnknownAgent(`init: unknown agent '${a}'${near ? ` (did you mean '${near}'?)` : ''}; --agent takes ${AGENT_LIST}`);
  }
  return [...new Set(list)] as AgentName[];
}

function text(ctx: PlanContext, path: string): string | null {
  return ctx.read(path)?.toString('utf8') ?? null;
}

function fileStep(path: string, change: TextChange, summary: string, recipe: Recipe): Step {
  return { kind: 'file', path, content: change.text === null ? null : Buffer.from(change.text, 'utf8'), summary, recipe };
}

/** Our entries merged into (or our file written at) `rel`, by the agent's format. */
function mergeFor(adapter: AgentAdapter, files: AgentFiles, before: string | null, rel: string): TextChange {
  const format = formatOf(files, rel);
  if (format === 'flat') return mergeFlatHooks(before, adapter, rel);
  if (format === 'cursor') return mergeCursorHooks(before, adapter, rel);
  if (format === 'own') return writeOwnFile(before, files.own!.content(adapter), rel, (t) => files.own!.isOurs(t, adapter));
  return mergeAgentSettings(before, adapter, rel);
}

/** Our entries (or our file) taken out of `now`. */
function unmergeFor(adapter: AgentAdapter, files: AgentFiles, now: string | null, rel: string, createdByInit: boolean): TextChange {
  const format = formatOf(files, rel);
  if (format === 'flat') return unmergeFlatHooks(now, adapter, rel, { createdByInit });
  if (format === 'cursor') return unmergeCursorHooks(now, adapter, rel, { createdByInit });
  if (format === 'own') return now !== null && files.own!.isOurs(now, adapter) ? { text: null, changed: true } : { text: now, changed: false };
  return unmergeAgentSettings(now, adapter, rel, { createdByInit });
}

function recipeFor(adapter: AgentAdapter, files: AgentFiles, rel: string, created: boolean): Recipe {
  const format = formatOf(files, rel);
  if (format === 'flat') return { part: 'flat', agent: adapter.name, created };
  if (format === 'cursor') return { part: 'cursor', agent: adapter.name, created };
  if (format === 'own') return { part: 'own-file', agent: adapter.name };
  return { part: 'settings', agent: adapter.name, created };
}

function planAgent(ctx: PlanContext, adapter: AgentAdapter): Step[] {
  const top = ctx.repo.workTree!;
  const steps: Step[] = [];
  const files = AGENT_FILES[adapter.name];
  const shared = Boolean(ctx.options.shared);
  const exists = (p: string) => ctx.read(join(top, p)) !== null;
  const rel = files.path(shared, exists);
  const abs = join(top, rel);
  const before = text(ctx, abs);
  let merged: TextChange;
  try {
    merged = mergeFor(adapter, files, before, rel);
  } catch (e) {
    if (e instanceof SettingsError) throw new InvalidAgentSettings(`init --agent ${adapter.name}: ${e.message}`);
    throw e;
  }
  if (merged.changed) {
    // hooks registered in the old form (`git handoff hook ...`) start Node on every turn
    const old = before !== null && before.includes(`${OLD_HOOK_COMMAND} `) && before.includes(`--agent ${adapter.name}`);
    const what = old
      ? `register the hooks as ${HOOK_COMMAND} (which answers an ordinary turn without starting Node) instead of '${OLD_HOOK_COMMAND}' in ${rel}`
      : formatOf(files, rel) === 'own'
        ? `${before === null ? 'create' : 'update'} ${rel}`
        : `${before === null ? 'create' : 'add the git-handoff hooks to'} ${rel}`;
    steps.push(fileStep(abs, merged, `${what} (${adapter.hooks.map((h) => h.native).join(', ')})`, recipeFor(adapter, files, rel, before === null)));
  }
  const otherRel = files.path(!shared, exists);
  if (otherRel !== rel) {
    // One place only: moving between --shared and the personal file takes our hooks out of the other.
    const other = join(top, otherRel);
    const otherText = text(ctx, other);
    let out: TextChange | null = null;
    try {
      out = otherText === null ? null : unmergeFor(adapter, files, otherText, otherRel, false);
    } catch {
      out = null; // not JSON we can read: leave it
    }
    if (out?.changed) steps.push(fileStep(other, out, `move the git-handoff hooks out of ${otherRel}`, recipeFor(adapter, files, otherRel, false)));
  }
  if (merged.changed && ((files.exclude === 'personal' && !shared) || (files.exclude === 'created' && !shared && before === null)))
    steps.push(...planExclude(ctx, rel));
  if (adapter.name === 'codex') steps.push(...planCodexFeatureRemoval(ctx));
  const present = adapter.instructionFiles.some((f) => hasTrigger(text(ctx, join(top, f))));
  if (!present) {
    const file = join(top, adapter.instructionFiles[0]);
    const current = text(ctx, file);
    steps.push(
      fileStep(
        file,
        addTriggerLine(current),
        `add the trigger line 'session handoff: read on start, write on end' to ${adapter.instructionFiles[0]} (delete it to turn the agent hooks off)`,
        { part: 'trigger', created: current === null },
      ),
    );
    // An instruction file init creates holds our one line and goes with the local hooks:
    // kept out of git like them unless --shared (a teammate without the tool would have
    // their agent told to run it). A file that was there already is the user's to commit.
    if (current === null && !shared) {
      const exclude = join(ctx.repo.paths.commonDir, 'info', 'exclude');
      const pending = [...steps].reverse().find((st): st is Extract<Step, { kind: 'file' }> => st.kind === 'file' && st.path === exclude);
      steps.push(...planExclude(ctx, adapter.instructionFiles[0], pending ? (pending.content?.toString('utf8') ?? '') : undefined));
    }
  }
  steps.push(...planMcp(ctx, adapter, steps, shared));
  if (steps.length && files.notice) steps.push({ kind: 'notice', summary: files.notice });
  return steps;
}

/**
 * The MCP server registered beside the hooks: one `git-handoff` entry in the
 * agent's project MCP file (src/agents/mcp-config.ts says where), unless `--no-mcp`.
 */
function planMcp(ctx: PlanContext, adapter: AgentAdapter, earlier: Step[], shared: boolean): Step[] {
  const reg = MCP_REGISTRATIONS[adapter.name];
  if (!reg || ctx.options['no-mcp']) return [];
  const abs = join(ctx.repo.workTree!, reg.file);
  // This agent's earlier steps are not applied to what ctx.read sees yet: build on them.
  const latestStep = (path: string) => [...earlier].reverse().find((s): s is Extract<Step, { kind: 'file' }> => s.kind === 'file' && s.path === path);
  const prior = latestStep(abs);
  const current = prior ? (prior.content?.toString('utf8') ?? null) : text(ctx, abs);
  let change: TextChange;
  try {
    change = addMcpServer(current, reg, reg.file);
  } catch (e) {
    if (e instanceof SettingsError) throw new InvalidAgentSettings(`init --agent ${adapter.name}: ${e.message}`);
    throw e;
  }
  if (!change.changed) return [];
  const then = prior?.recipe as Recipe | undefined;
  const created = then && 'created' in then ? then.created : current === null;
  const steps: Step[] = [
    fileStep(
      abs,
      change,
      `register the MCP server (git handoff mcp) as ${reg.format === 'toml' ? `[${reg.key}.git-handoff]` : `${reg.key}.git-handoff`} in ${reg.file}`,
      { part: 'mcp', agent: adapter.name, created, ...(then ? { then } : {}) },
    ),
  ];
  // a file init creates stays out of git unless --shared, as the agent's hook file does
  if (!prior && current === null && !shared && (reg.file === '.mcp.json' || AGENT_FILES[adapter.name].exclude === 'created')) {
    const exclude = join(ctx.repo.paths.commonDir, 'info', 'exclude');
    const pending = latestStep(exclude);
    steps.push(...planExclude(ctx, reg.file, pending ? (pending.content?.toString('utf8') ?? '') : undefined));
  }
  if (reg.notice) steps.push({ kind: 'notice', summary: reg.notice });
  return steps;
}

/**
 * Earlier versions turned Codex hooks on with `[features] codex_hooks = true`, which
 * Codex 0.169 and later warn about on every run (hooks are on by default there): the line
 * those versions recorded as theirs comes out again, as `uninstall` would take it out.
 */
function planCodexFeatureRemoval(ctx: PlanContext): Step[] {
  const record = readInstallRecord<InstallRecord>(ctx.repo);
  const entry = record?.files.find((f) => f.installer === 'agent-codex' && (f.recipe as Recipe | undefined)?.part === 'codex-feature');
  if (!entry) return [];
  const recipe = entry.recipe as Extract<Recipe, { part: 'codex-feature' }>;
  const abs = join(ctx.repo.workTree!, '.codex/config.toml');
  const out = disableCodexHooks(text(ctx, abs), recipe.previous, recipe.created);
  if (!out.changed) return [];
  return [fileStep(abs, out, 'take [features] codex_hooks = true out of .codex/config.toml (deprecated: Codex runs hooks by default since 0.169)', recipe)];
}

/** Keeps a personal or created file out of git (Claude Code's own convention for its personal settings). */
function planExclude(ctx: PlanContext, rel: string, pending?: string): Step[] {
  const top = ctx.repo.workTree!;
  // already ignored by the project: a .gitignore line naming the file (the personal settings' usual one)
  const name = rel.split('/').pop()!;
  const ignored = ['.gitignore', '.claude/.gitignore'].some((f) =>
    (text(ctx, join(top, f)) ?? '').split('\n').some((l) => l.trim() === name || l.trim().endsWith(`/${name}`)),
  );
  const exclude = join(ctx.repo.paths.commonDir, 'info', 'exclude');
  const current = pending ?? text(ctx, exclude) ?? '';
  const line = `/${rel}`;
  if (ignored || current.split('\n').some((l) => l.trim() === line || l.trim() === rel)) return [];
  const next = `${current}${current === '' || current.endsWith('\n') ? '' : '\n'}${line}\n`;
  return [
    {
      kind: 'file',
      path: exclude,
      content: Buffer.from(next),
      summary: `keep ${rel} out of git (.git/info/exclude)`,
      recipe: { part: 'exclude', line } satisfies Recipe,
    },
  ];
}

function undo(file: RecordedFile, current: Buffer | null): Buffer | null | 'keep' {
  const recipe = file.recipe as Recipe | undefined;
  if (!recipe || current === null) return 'keep';
  if (recipe.part === 'mcp') {
    const reg = MCP_REGISTRATIONS[recipe.agent];
    let out: TextChange;
    try {
      out = reg ? removeMcpServer(current.toString('utf8'), reg, file.path, recipe.created && !recipe.then) : { text: null, changed: false };
    } catch {
      return 'keep';
    }
    if (!recipe.then) return out.changed ? (out.text === null ? null : Buffer.from(out.text, 'utf8')) : 'keep';
    const rest = undo({ ...file, recipe: recipe.then }, out.text === null ? null : Buffer.from(out.text, 'utf8'));
    if (rest !== 'keep') return rest;
    return out.changed ? (out.text === null ? null : Buffer.from(out.text, 'utf8')) : 'keep';
  }
  const now = current.toString('utf8');
  let out: TextChange;
  try {
    if (recipe.part === 'settings') out = unmergeAgentSettings(now, AGENTS[recipe.agent], file.path, { createdByInit: recipe.created });
    else if (recipe.part === 'flat') out = unmergeFlatHooks(now, AGENTS[recipe.agent], file.path, { createdByInit: recipe.created });
    else if (recipe.part === 'cursor') out = unmergeCursorHooks(now, AGENTS[recipe.agent], file.path, { createdByInit: recipe.created });
    else if (recipe.part === 'own-file')
      out = AGENT_FILES[recipe.agent].own!.isOurs(now, AGENTS[recipe.agent]) ? { text: null, changed: true } : { text: now, changed: false };
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
 * Without an install record: our hook entries out of the agent's hook files (they are
 * clearly ours), and files that are ours alone. The trigger line stays: a person may have
 * put it there.
 */
function orphans(ctx: PlanContext, adapter: AgentAdapter): Step[] {
  if (!ctx.repo.workTree) return [];
  const files = AGENT_FILES[adapter.name];
  const exists = (p: string) => ctx.read(join(ctx.repo.workTree!, p)) !== null;
  const paths = [...new Set([files.path(false, exists), files.path(true, exists)])];
  const steps: Step[] = [];
  for (const rel of paths) {
    const abs = join(ctx.repo.workTree, rel);
    try {
      const out = unmergeFor(adapter, files, text(ctx, abs), rel, false);
      if (out.changed) steps.push(fileStep(abs, out, `take the git-handoff hooks out of ${rel}`, recipeFor(adapter, files, rel, false)));
    } catch {
      /* not JSON we can read: leave it */
    }
  }
  const reg = MCP_REGISTRATIONS[adapter.name];
  if (reg) {
    const abs = join(ctx.repo.workTree, reg.file);
    try {
      const out = removeMcpServer(text(ctx, abs), reg, reg.file, false);
      if (out.changed)
        steps.push(fileStep(abs, out, `take the git-handoff MCP server out of ${reg.file}`, { part: 'mcp', agent: adapter.name, created: false }));
    } catch {
      /* not a file we can read: leave it */
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
            agent: { type: 'string', multiple: true, arg: AGENT_NAMES.join('|'), describe: "install an agent's hooks and its trigger line (repeatable)" },
            'no-mcp': { type: 'boolean', describe: "with --agent: do not register the MCP server (git handoff mcp) in the agent's MCP configuration" },
            shared: {
              type: 'boolean',
              describe:
                'with --agent: the committed file (.claude/settings.json, .factory/settings.json) instead of the personal one, and no .git/info/exclude line for a file init creates',
            },
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
