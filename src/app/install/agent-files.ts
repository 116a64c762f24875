/**
 * Where each agent's hooks go and in which shape: one entry per agent, read by the agent
 * installer (agents.ts) for init, uninstall and doctor's plan.
 */
import type { AgentAdapter, AgentName } from '../../agents/types.js';
import { copilotHooksFile, isOurCopilotFile } from '../../agents/settings.js';
import { OPENCODE_PLUGIN, OPENCODE_PLUGIN_MARK } from '../../agents/opencode-plugin.js';

/** How an agent's hook file is shaped. */
export type HookFormat = 'claude' | 'flat' | 'cursor' | 'own';

export interface AgentFiles {
  /** the hook file (relative to the work tree) for `--shared` or not, given which files exist */
  path(shared: boolean, exists: (rel: string) => boolean): string;
  /** its shape (by path, for an agent with two kinds of hook file) */
  format: HookFormat | ((rel: string) => HookFormat);
  /** 'personal': the non-shared path is a personal file, always kept out of git; 'created': a file init creates is kept out of git unless --shared */
  exclude?: 'personal' | 'created';
  /** for format 'own': the file's whole content, and whether a text at that path is ours */
  own?: { content(adapter: AgentAdapter): string; isOurs(text: string, adapter: AgentAdapter): boolean };
  /** what the user must do before the agent runs the hooks */
  notice?: string;
}

/** One entry per agent: where its hooks go and in which shape. */
export const AGENT_FILES: Record<AgentName, AgentFiles> = {
  claude: { path: (shared) => (shared ? '.claude/settings.json' : '.claude/settings.local.json'), format: 'claude', exclude: 'personal' },
  codex: {
    path: () => '.codex/hooks.json',
    format: 'claude',
    notice:
      "Codex runs a project's hooks only in a trusted project, once you trust each hook: run `codex` here and review them with /hooks (headless `codex exec` skips untrusted hooks without a word); `git handoff doctor` says whether Codex will run them",
  },
  gemini: { path: () => '.gemini/settings.json', format: 'claude', notice: 'Gemini CLI runs project hooks only in a trusted folder' },
  cursor: {
    path: () => '.cursor/hooks.json',
    format: 'cursor',
    exclude: 'created',
    notice: 'Cursor loads .cursor/hooks.json when an agent session starts: open a new chat (or restart Cursor)',
  },
  copilot: {
    path: () => '.github/hooks/git-handoff.json',
    format: 'own',
    exclude: 'created',
    own: { content: (a) => copilotHooksFile(a), isOurs: (t, a) => isOurCopilotFile(t, a) },
    notice: 'Copilot CLI runs repository hooks in a trusted folder (and in -p mode only there)',
  },
  opencode: {
    path: () => '.opencode/plugins/git-handoff.js',
    format: 'own',
    exclude: 'created',
    own: { content: () => OPENCODE_PLUGIN, isOurs: (t) => t.startsWith(OPENCODE_PLUGIN_MARK) },
    notice: 'OpenCode loads plugins when it starts: restart it',
  },
  // Droid reads project hooks from .factory/hooks.json (the event map itself) when it
  // exists, else from `hooks` in .factory/settings.json; never from settings.local.json
  // (measured on 0.225.2), so a file init creates is kept out of git unless --shared.
  droid: {
    path: (_shared, exists) => (exists('.factory/hooks.json') ? '.factory/hooks.json' : '.factory/settings.json'),
    format: (rel) => (rel.endsWith('hooks.json') ? 'flat' : 'claude'),
    exclude: 'created',
    notice: 'Droid reads hooks when a session starts: restart it',
  },
};

export const formatOf = (files: AgentFiles, rel: string): HookFormat => (typeof files.format === 'function' ? files.format(rel) : files.format);
