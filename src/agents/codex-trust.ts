/**
 * Whether Codex will run our project hooks (pure: text in, answer out). Codex runs a
 * project's `.codex/hooks.json` only when the project is trusted (`[projects."<dir>"]
 * trust_level = "trusted"` in `$CODEX_HOME/config.toml`) and each hook is trusted: its
 * review screen (`/hooks`, or the app-server's `config/batchWrite`) records
 * `[hooks.state."<hooks.json path>:<event>:<group>:<handler>"] trusted_hash = "sha256:..."`,
 * the sha256 of `{"event_name": <event>, "hooks": [{"async", "command", "timeout",
 * "type"}]}` (keys sorted, the effective timeout; measured on Codex 0.171.0 against its
 * own `hooks/list`). A hook whose hash differs was changed since it was trusted, and
 * Codex skips it like an untrusted one; `codex exec` says nothing about either.
 */
import { createHash } from 'node:crypto';
import { readToml, tomlValue, TomlSyntaxError, type TomlTable } from './toml.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const LABELS: Record<string, string> = {
  SessionStart: 'session_start',
  UserPromptSubmit: 'user_prompt_submit',
  PreCompact: 'pre_compact',
  PostCompact: 'post_compact',
  Stop: 'stop',
  SessionEnd: 'session_end',
  PreToolUse: 'pre_tool_use',
  PostToolUse: 'post_tool_use',
  PermissionRequest: 'permission_request',
  SubagentStart: 'subagent_start',
  SubagentStop: 'subagent_stop',
};

export interface CodexHookTrust {
  key: string;
  event: string;
  status: 'trusted' | 'untrusted' | 'modified';
}

export interface CodexTrust {
  projectTrusted: boolean;
  hooks: CodexHookTrust[];
  /** config.toml does not parse (Codex refuses to start on it): what the parser says */
  unreadable?: string;
}

/** The state of each hook in `hooksText` (at `hooksPath`) that `isOurs` selects, for a project at `projectDirs` (the top and its parents), from Codex's `configText` (at `configPath`). */
export function codexTrust(
  configText: string | null,
  configPath: string,
  hooksPath: string,
  hooksText: string,
  projectDirs: string[],
  isOurs: (command: string) => boolean,
): CodexTrust {
  let config: TomlTable = {};
  let unreadable: { unreadable: string } | object = {};
  try {
    config = readToml(configText ?? '', configPath);
  } catch (e) {
    if (!(e instanceof TomlSyntaxError)) throw e;
    unreadable = { unreadable: e.message };
  }
  const projectTrusted = projectDirs.some((d) => tomlValue(config, ['projects', d, 'trust_level']) === 'trusted');
  const hooks: CodexHookTrust[] = [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(hooksText);
  } catch {
    return { projectTrusted, hooks, ...unreadable };
  }
  if (!isObj(parsed) || !isObj(parsed.hooks)) return { projectTrusted, hooks, ...unreadable };
  for (const [event, groups] of Object.entries(parsed.hooks)) {
    const label = LABELS[event];
    if (!label || !Array.isArray(groups)) continue;
    groups.forEach((g, gi) => {
      if (!isObj(g) || !Array.isArray(g.hooks)) return;
      g.hooks.forEach((h, hi) => {
        if (!isObj(h) || typeof h.command !== 'string' || !isOurs(h.command)) return;
        const configured = typeof h.timeout === 'number' ? h.timeout : 600;
        const timeout = label === 'session_end' ? Math.min(3, Math.max(1, configured)) : Math.max(1, configured);
        const matcher = typeof g.matcher === 'string' && !['user_prompt_submit', 'stop'].includes(label) ? { matcher: g.matcher } : {};
        const payload = { event_name: label, hooks: [{ async: h.async === true, command: h.command, timeout, type: 'command' }], ...matcher };
        const hash = `sha256:${createHash('sha256')
          .update(JSON.stringify(sortKeys(payload)))
          .digest('hex')}`;
        const key = `${hooksPath}:${label}:${gi}:${hi}`;
        const trusted = tomlValue(config, ['hooks', 'state', key, 'trusted_hash']);
        hooks.push({ key, event, status: trusted === undefined ? 'untrusted' : trusted === hash ? 'trusted' : 'modified' });
      });
    });
  }
  return { projectTrusted, hooks, ...unreadable };
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!isObj(v)) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortKeys(v[k])]),
  );
}
