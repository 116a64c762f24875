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

/** The table headers and `key = "string"` values of a TOML text, enough for the two tables we read. */
export function tomlTables(text: string): Map<string, Map<string, string>> {
  const tables = new Map<string, Map<string, string>>();
  let current: Map<string, string> | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const header = /^\[([^[\]]*(?:"[^"]*"[^[\]]*)*)\]\s*(#.*)?$/.exec(line);
    if (header) {
      const name = header[1].trim();
      current = tables.get(name) ?? new Map();
      tables.set(name, current);
      continue;
    }
    const kv = /^([A-Za-z0-9_-]+)\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(line);
    if (kv && current) current.set(kv[1], kv[2].replace(/\\(["\\])/g, '$1'));
  }
  return tables;
}

const quoted = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

export interface CodexHookTrust {
  key: string;
  event: string;
  status: 'trusted' | 'untrusted' | 'modified';
}

export interface CodexTrust {
  projectTrusted: boolean;
  hooks: CodexHookTrust[];
}

/** The state of each hook in `hooksText` (at `hooksPath`) that `isOurs` selects, for a project at `projectDirs` (the top and its parents). */
export function codexTrust(
  configText: string | null,
  hooksPath: string,
  hooksText: string,
  projectDirs: string[],
  isOurs: (command: string) => boolean,
): CodexTrust {
  const tables = tomlTables(configText ?? '');
  const projectTrusted = projectDirs.some(
    (d) => tables.get(`projects.${quoted(d)}`)?.get('trust_level') === 'trusted' || tables.get(`projects.'${d}'`)?.get('trust_level') === 'trusted',
  );
  const hooks: CodexHookTrust[] = [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(hooksText);
  } catch {
    return { projectTrusted, hooks };
  }
  if (!isObj(parsed) || !isObj(parsed.hooks)) return { projectTrusted, hooks };
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
        const trusted = tables.get(`hooks.state.${quoted(key)}`)?.get('trusted_hash');
        hooks.push({ key, event, status: trusted === undefined ? 'untrusted' : trusted === hash ? 'trusted' : 'modified' });
      });
    });
  }
  return { projectTrusted, hooks };
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
