/**
 * Registering `git handoff mcp` in an agent's project MCP configuration, as
 * pure text-in, text-out functions: `init --agent` adds one entry named `git-handoff`,
 * `uninstall` takes out exactly that entry (and a table or file left empty by it that init
 * created). One entry of `MCP_REGISTRATIONS` per agent says where and in which shape.
 */
import type { AgentName } from './types.js';
import { parseJsonObject, serializeLike, SettingsError, type TextChange } from './settings.js';
import { isTable, readsAs, readToml, tomlTables, TomlSyntaxError } from './toml.js';

export const MCP_SERVER_NAME = 'git-handoff';
/** What the agent runs: in the folder it starts the server in (the project). */
export const MCP_COMMAND = { command: 'git', args: ['handoff', 'mcp'] } as const;

export interface McpRegistration {
  /** the project file, relative to the work tree */
  file: string;
  /**
   * 'json': an object under `key` maps server names to `{command, args}` entries;
   * 'toml': `[<key>.<name>]` tables; 'opencode': like 'json', with OpenCode's entry shape
   * (`{"type": "local", "command": ["git", "handoff", "mcp"]}`)
   */
  format: 'json' | 'toml' | 'opencode';
  key: string;
  /** fields of the entry besides command and args (Claude Code's `type`) */
  extra?: Record<string, unknown>;
  /** what the user must do before the agent starts a project's server */
  notice?: string;
}

/** Where each agent reads project MCP servers. Agents not listed here get no registration. */
export const MCP_REGISTRATIONS: Partial<Record<AgentName, McpRegistration>> = {
  // code.claude.com/docs/en/mcp: project scope is .mcp.json at the project root
  claude: {
    file: '.mcp.json',
    format: 'json',
    key: 'mcpServers',
    extra: { type: 'stdio' },
    notice: "Claude Code asks once before it starts the servers of a project's .mcp.json (or /mcp)",
  },
  // developers.openai.com/codex/mcp: [mcp_servers.<name>] in config.toml; a project's .codex/config.toml in a trusted project
  codex: { file: '.codex/config.toml', format: 'toml', key: 'mcp_servers', notice: "Codex reads a project's .codex/config.toml only in a trusted project" },
  // geminicli.com/docs/tools/mcp-server: mcpServers in .gemini/settings.json
  gemini: { file: '.gemini/settings.json', format: 'json', key: 'mcpServers' },
  // cursor.com/docs/context/mcp: a project's .cursor/mcp.json, mcpServers
  cursor: { file: '.cursor/mcp.json', format: 'json', key: 'mcpServers' },
  // Copilot CLI reads a workspace's .mcp.json (Claude Code's file) in a trusted folder (its changelog, 1.0.x)
  copilot: {
    file: '.mcp.json',
    format: 'json',
    key: 'mcpServers',
    extra: { type: 'stdio' },
    notice: 'Copilot CLI starts the servers of a workspace .mcp.json only in a trusted folder',
  },
  // opencode.ai/docs/mcp-servers: "mcp" in the project's opencode.json, local servers run a command array
  opencode: { file: 'opencode.json', format: 'opencode', key: 'mcp' },
  // docs.factory.ai: a project's .factory/mcp.json, mcpServers (`droid mcp list` shows it connected, 0.225.2)
  droid: { file: '.factory/mcp.json', format: 'json', key: 'mcpServers', extra: { type: 'stdio' } },
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function entryFor(reg: McpRegistration): Obj {
  if (reg.format === 'opencode') return { type: 'local', command: [MCP_COMMAND.command, ...MCP_COMMAND.args] };
  return { ...(reg.extra ?? {}), command: MCP_COMMAND.command, args: [...MCP_COMMAND.args] };
}

/** An entry that runs our server (whatever else it sets), in either shape. */
function isOurEntry(v: unknown): boolean {
  if (isObj(v) && Array.isArray(v.command)) return v.command[0] === 'git' && v.command[1] === 'handoff' && v.command[2] === 'mcp';
  return isObj(v) && v.command === 'git' && Array.isArray(v.args) && v.args[0] === 'handoff' && v.args[1] === 'mcp';
}

/** Adds our server; an entry of that name that is not ours is refused, never replaced. */
export function addMcpServer(text: string | null, reg: McpRegistration, path: string): TextChange {
  return reg.format === 'toml' ? addToml(text, reg, path) : addJson(text, reg, path);
}

/** Takes our entry out (only ours); a table/file init created and left empty goes too. */
export function removeMcpServer(text: string | null, reg: McpRegistration, path: string, createdByInit: boolean): TextChange {
  if (text === null) return { text, changed: false };
  return reg.format === 'toml' ? removeToml(text, reg, path, createdByInit) : removeJson(text, reg, path, createdByInit);
}

function addJson(text: string | null, reg: McpRegistration, path: string): TextChange {
  const settings = parseJsonObject(text, path);
  const servers = settings[reg.key];
  if (servers !== undefined && !isObj(servers)) throw new SettingsError(`${path}: "${reg.key}" is not an object`);
  const current = (servers as Obj | undefined)?.[MCP_SERVER_NAME];
  if (current !== undefined) {
    if (isOurEntry(current)) return { text, changed: false };
    throw new SettingsError(`${path}: ${reg.key}.${MCP_SERVER_NAME} is there already and runs something else; rename or remove it, then run init again`);
  }
  return { text: serializeLike(text, { ...settings, [reg.key]: { ...((servers as Obj) ?? {}), [MCP_SERVER_NAME]: entryFor(reg) } }), changed: true };
}

function removeJson(text: string, reg: McpRegistration, path: string, createdByInit: boolean): TextChange {
  const settings = parseJsonObject(text, path);
  const servers = settings[reg.key];
  if (!isObj(servers) || !isOurEntry(servers[MCP_SERVER_NAME])) return { text, changed: false };
  const { [MCP_SERVER_NAME]: _ours, ...rest } = servers;
  const out: Obj = { ...settings };
  if (Object.keys(rest).length) out[reg.key] = rest;
  else delete out[reg.key];
  if (createdByInit && Object.keys(out).length === 0) return { text: null, changed: true };
  return { text: serializeLike(text, out), changed: true };
}

const tomlHeader = (reg: McpRegistration) => `[${reg.key}.${MCP_SERVER_NAME}]`;

/** A TOML text that does not parse is refused like a JSON one (SettingsError, the line named). */
function readConfig(text: string, path: string): Obj {
  try {
    return readToml(text, path);
  } catch (e) {
    if (e instanceof TomlSyntaxError) throw new SettingsError(e.message);
    throw e;
  }
}

/** Our table goes at the end, as `[mcp_servers.git-handoff]`; the result must read as the file plus our entry, or nothing is written. */
function addToml(text: string | null, reg: McpRegistration, path: string): TextChange {
  const src = text ?? '';
  const doc = readConfig(src, path);
  const servers = doc[reg.key];
  if (servers !== undefined && !isTable(servers)) throw new SettingsError(`${path}: "${reg.key}" is not a table`);
  const current = servers?.[MCP_SERVER_NAME];
  if (current !== undefined) {
    if (isOurEntry(current)) return { text, changed: false };
    throw new SettingsError(`${path}: [${reg.key}.${MCP_SERVER_NAME}] is there already and runs something else; rename or remove it, then run init again`);
  }
  const sep = src === '' ? '' : src.endsWith('\n\n') ? '' : src.endsWith('\n') ? '\n' : '\n\n';
  const args = MCP_COMMAND.args.map((a) => JSON.stringify(a)).join(', ');
  const out = `${src}${sep}${tomlHeader(reg)}\ncommand = "${MCP_COMMAND.command}"\nargs = [${args}]\n`;
  if (!readsAs(out, { ...doc, [reg.key]: { ...(servers ?? {}), [MCP_SERVER_NAME]: entryFor(reg) } }))
    throw new SettingsError(
      `${path}: "${reg.key}" is written in a form a ${tomlHeader(reg)} table cannot be added to (an inline table?); add the entry by hand or make it a table, then run init again`,
    );
  return { text: out, changed: true };
}

/** Takes out the `[mcp_servers.git-handoff]` table init wrote (and its sub-tables) when it still runs our server; an entry written in another form is the user's. */
function removeToml(text: string, reg: McpRegistration, path: string, createdByInit: boolean): TextChange {
  const doc = readConfig(text, path);
  const servers = doc[reg.key];
  if (!isTable(servers) || !isOurEntry(servers[MCP_SERVER_NAME])) return { text, changed: false };
  const ours = tomlTables(text).filter((t) => !t.array && t.keys[0] === reg.key && t.keys[1] === MCP_SERVER_NAME);
  if (!ours.length) return { text, changed: false };
  const lines = text.split('\n');
  for (const t of [...ours].reverse()) {
    let { start: at, end } = t;
    // the blank line addToml put before the table, and trailing blank lines of the table
    while (end > at + 1 && lines[end - 1].trim() === '' && end < lines.length) end--;
    if (at > 0 && lines[at - 1].trim() === '') at--;
    lines.splice(at, end - at);
  }
  let out = lines.join('\n');
  if (out !== '' && !out.endsWith('\n') && text.endsWith('\n')) out += '\n';
  const { [MCP_SERVER_NAME]: _ours, ...rest } = servers;
  // a table left empty may read as {} (its own header stayed) or be gone
  const { [reg.key]: _servers, ...others } = doc;
  const expected = Object.keys(rest).length ? [{ ...doc, [reg.key]: rest }] : [{ ...doc, [reg.key]: {} }, others];
  if (!expected.some((e) => readsAs(out, e))) throw new SettingsError(`${path}: taking out ${tomlHeader(reg)} would change other entries; take it out by hand`);
  if (createdByInit && out.trim() === '') return { text: null, changed: true };
  return { text: out, changed: true };
}
