/**
 * The one TOML reader (src/agents/toml.ts) and its two callers: the trust records doctor
 * reads from Codex's config.toml (codex-trust.ts) and the MCP entry init adds and uninstall
 * takes out (mcp-config.ts). Both read a config through it, so the shapes real Codex configs
 * have (tables, dotted keys, inline tables, arrays of tables, comments, multi-line strings)
 * read the same for both, as smol-toml (the parser behind it) reads them.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'smol-toml';
import { readToml, tomlTables, tomlValue } from '../../src/agents/toml.js';
import { codexTrust } from '../../src/agents/codex-trust.js';
import { addMcpServer, MCP_REGISTRATIONS, removeMcpServer } from '../../src/agents/mcp-config.js';
import { SettingsError } from '../../src/agents/settings.js';

const reg = MCP_REGISTRATIONS.codex!;
const DIR = '/home/me/proj';
const trusted = (config: string) =>
  codexTrust(config, '/c/config.toml', '/p/.codex/hooks.json', '{}', [DIR, '/home/me', '/home', '/'], () => true).projectTrusted;

/** The same trust record in each spelling TOML allows. */
const TRUST_SPELLINGS: [string, string][] = [
  ['a table with a basic-string key', `[projects."${DIR}"]\ntrust_level = "trusted"\n`],
  ['a table with a literal-string key and a comment', `[projects.'${DIR}'] # added by codex\ntrust_level = 'trusted' # literal\n`],
  ['spaces around the dot', `[ projects . "${DIR}" ]\ntrust_level="trusted"\n`],
  ['dotted keys at the root', `projects."${DIR}".trust_level = "trusted"\n`],
  ['dotted keys under [projects]', `[projects]\n"${DIR}".trust_level = "trusted"\n`],
  ['an inline table', `projects = { "${DIR}" = { trust_level = "trusted" } }\n`],
  ['an inline table under [projects]', `[projects]\n"${DIR}" = { trust_level = "trusted" }\n`],
  [
    'a parent folder, after a multi-line string holding a header',
    `notify = """\n[projects."/elsewhere"]\n"""\n[projects."/home/me"]\ntrust_level = "trusted"\n`,
  ],
];

/** A config as people keep one: comments, profiles, arrays of tables, multi-line strings, other servers. */
const REAL = `# ~/.codex/config.toml
model = "gpt-5-codex"
model_reasoning_effort = "high"   # or "medium"
approval_policy = 'on-request'

[profiles.fast]
model = "o4-mini"
sandbox_workspace_write.network_access = true

[[notify_rules]]
on = ["turn-complete"]
command = ["notify-send", "codex"]

[[notify_rules]]
on = ["approval"]

instructions = '''
Use [mcp_servers.git-handoff] when asked about handoffs.
[projects."${DIR}"]
'''

[mcp_servers.context7]
command = "npx"
args = [
  "-y",   # the package
  "@upstash/context7-mcp",
  [ "x" ],
]
env = { KEY = "v" }

[tui]
notifications = true
`;

describe('the TOML reader', () => {
  it('finds exactly the table headers the parser sees, none inside a string or an array', () => {
    const spans = tomlTables(REAL);
    expect(spans.map((s) => [s.keys.join('.'), s.array])).toEqual([
      ['profiles.fast', false],
      ['notify_rules', true],
      ['notify_rules', true],
      ['mcp_servers.context7', false],
      ['tui', false],
    ]);
    const doc = parse(REAL) as any;
    for (const s of spans) expect(tomlValue(doc, s.keys)).toBeDefined();
    // each span runs to the next header, and the last to the end
    const lines = REAL.split('\n');
    expect(lines[spans[0].start]).toBe('[profiles.fast]');
    expect(spans.every((s, i) => s.end === (spans[i + 1]?.start ?? lines.length))).toBe(true);
  });

  it('reads the values as smol-toml does, and names the line of a syntax error', () => {
    expect(readToml(REAL, 'c')).toEqual(parse(REAL));
    expect(() => readToml('model = "o3"\n[tui\n', '/c/config.toml')).toThrow(/^\/c\/config\.toml: not valid TOML \(line 2\)/);
  });
});

describe('Codex trust (doctor)', () => {
  it.each(TRUST_SPELLINGS)('reads a trusted project written as %s', (_name, config) => {
    expect(trusted(config)).toBe(true);
  });

  it('is not fooled by a record for another folder, a value that is not "trusted", or a header inside a string', () => {
    expect(trusted(`[projects."/home/me/proj2"]\ntrust_level = "trusted"\n`)).toBe(false);
    expect(trusted(`[projects."${DIR}"]\ntrust_level = "untrusted"\n`)).toBe(false);
    expect(trusted(REAL)).toBe(false);
  });

  it('says when config.toml does not parse', () => {
    const t = codexTrust('[projects\n', '/c/config.toml', '/p/.codex/hooks.json', '{}', [DIR], () => true);
    expect(t).toMatchObject({ projectTrusted: false, unreadable: expect.stringMatching(/^\/c\/config\.toml: not valid TOML \(line 1\)/) });
  });
});

describe('the MCP entry (init, uninstall)', () => {
  const ours = { command: 'git', args: ['handoff', 'mcp'] };

  it('is added to a real config, which then reads as before plus our entry, and taken out to the byte', () => {
    const added = addMcpServer(REAL, reg, 'c');
    expect(added.changed).toBe(true);
    const doc = parse(added.text!) as any;
    expect(doc.mcp_servers['git-handoff']).toEqual(ours);
    expect({ ...doc, mcp_servers: { context7: doc.mcp_servers.context7 } }).toEqual(parse(REAL));
    expect(addMcpServer(added.text, reg, 'c')).toEqual({ text: added.text, changed: false });
    expect(removeMcpServer(added.text, reg, 'c', false)).toEqual({ text: REAL, changed: true });
  });

  it('knows our entry in any spelling, and a header in a multi-line string is no entry', () => {
    for (const text of [
      '[mcp_servers]\ngit-handoff = { command = "git", args = ["handoff", "mcp"] }\n',
      '[mcp_servers."git-handoff"]\ncommand = \'git\'\nargs = [\n  "handoff",\n  "mcp",\n]\n',
      'mcp_servers.git-handoff.command = "git"\nmcp_servers.git-handoff.args = ["handoff", "mcp"]\n',
    ])
      expect(addMcpServer(text, reg, 'c')).toEqual({ text, changed: false });
    const prompt = 'developer_instructions = """\n[mcp_servers.git-handoff]\ncommand = "other"\n"""\n';
    const added = addMcpServer(prompt, reg, 'c');
    expect((parse(added.text!) as any).mcp_servers['git-handoff']).toEqual(ours);
    expect(removeMcpServer(added.text, reg, 'c', false)).toEqual({ text: prompt, changed: true });
  });

  it('refuses what it cannot add to or read, naming the file, and never writes a file that does not parse', () => {
    expect(() => addMcpServer('[mcp_servers.git-handoff]\ncommand = "uvx"\n', reg, '.codex/config.toml')).toThrow(/runs something else/);
    expect(() => addMcpServer('mcp_servers = { other = { command = "x" } }\n', reg, '.codex/config.toml')).toThrow(
      /^\.codex\/config\.toml: "mcp_servers" is written in a form .* cannot be added to/,
    );
    expect(() => addMcpServer('mcp_servers = 3\n', reg, '.codex/config.toml')).toThrow(SettingsError);
    expect(() => addMcpServer('model = "o3\n', reg, '.codex/config.toml')).toThrow(/^\.codex\/config\.toml: not valid TOML \(line 1\)/);
  });

  it('takes out the sub-tables of our entry with it, and leaves an entry of ours the user wrote in another form', () => {
    const text =
      'model = "o3"\n\n[mcp_servers.git-handoff]\ncommand = "git"\nargs = ["handoff", "mcp"]\n\n[mcp_servers.git-handoff.env]\nX = "1"\n\n[tui]\nx = 1\n';
    const out = removeMcpServer(text, reg, 'c', false);
    expect(out.changed).toBe(true);
    expect(parse(out.text!)).toEqual({ model: 'o3', tui: { x: 1 } });
    const inline = '[mcp_servers]\ngit-handoff = { command = "git", args = ["handoff", "mcp"] }\n';
    expect(removeMcpServer(inline, reg, 'c', false)).toEqual({ text: inline, changed: false });
  });
});
