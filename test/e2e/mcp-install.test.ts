/**
 * `init --agent` registers `git handoff mcp` in the agent's project MCP configuration
 * (Claude Code `.mcp.json`, Codex `.codex/config.toml` `[mcp_servers]`, Gemini
 * `.gemini/settings.json` `mcpServers`), and `uninstall` takes out exactly that entry.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { TestRepo } from '../helpers/repo.js';
import { cliPath, handoff } from '../helpers/cli.js';

const read = (repo: TestRepo, p: string) => readFileSync(join(repo.dir, p), 'utf8');
const OTHER_JSON = '{\n  "mcpServers": {\n    "other": { "command": "npx", "args": ["-y", "other-server"] }\n  }\n}\n';
const OURS = { command: 'git', args: ['handoff', 'mcp'] };

describe('init --agent registers the MCP server', () => {
  it("Claude Code .mcp.json: beside other servers, idempotent, the file back byte for byte; an entry that the user's edit kept is the only thing taken out", async () => {
    const repo = TestRepo.init();
    repo.commit('init');
    repo.write('.mcp.json', OTHER_JSON);
    const r = handoff(repo, ['init', '--agent', 'claude']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('register the MCP server (git handoff mcp) as mcpServers.git-handoff in .mcp.json');
    const cfg = JSON.parse(read(repo, '.mcp.json'));
    expect(cfg.mcpServers).toEqual({ other: { command: 'npx', args: ['-y', 'other-server'] }, 'git-handoff': { type: 'stdio', ...OURS } });
    expect(handoff(repo, ['init', '--agent', 'claude']).stdout).toContain('nothing changed');

    // the entry really starts our server, in the project folder as the agent does
    const entry = cfg.mcpServers['git-handoff'];
    const client = new Client({ name: 'as-claude', version: '1' });
    await client.connect(
      new StdioClientTransport({ command: entry.command, args: entry.args, cwd: repo.dir, env: { ...(repo.env as Record<string, string>), PATH: cliPath() } }),
    );
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('handoff_write');
    } finally {
      await client.close();
    }

    expect(handoff(repo, ['uninstall']).code).toBe(0);
    expect(read(repo, '.mcp.json')).toBe(OTHER_JSON);

    // changed after init: only our entry goes
    handoff(repo, ['init', '--agent', 'claude']);
    const edited = JSON.parse(read(repo, '.mcp.json'));
    edited.mcpServers.third = { command: 'third' };
    repo.write('.mcp.json', `${JSON.stringify(edited, null, 2)}\n`);
    expect(handoff(repo, ['uninstall']).code).toBe(0);
    expect(JSON.parse(read(repo, '.mcp.json')).mcpServers).toEqual({ other: { command: 'npx', args: ['-y', 'other-server'] }, third: { command: 'third' } });
  });

  it('Codex [mcp_servers.git-handoff] in .codex/config.toml: appended, and only that table taken out after an edit', () => {
    const repo = TestRepo.init();
    repo.commit('init');
    const toml = 'model = "o3"\n\n[mcp_servers.other]\ncommand = "other"\n';
    repo.write('.codex/config.toml', toml);
    expect(handoff(repo, ['init', '--agent', 'codex']).code).toBe(0);
    expect(read(repo, '.codex/config.toml')).toBe(`${toml}\n[mcp_servers.git-handoff]\ncommand = "git"\nargs = ["handoff", "mcp"]\n`);
    repo.write('.codex/config.toml', `${read(repo, '.codex/config.toml')}\n[profiles.fast]\nmodel = "o4-mini"\n`);
    expect(handoff(repo, ['uninstall']).code).toBe(0);
    expect(read(repo, '.codex/config.toml')).toBe(`${toml}\n[profiles.fast]\nmodel = "o4-mini"\n`);
  });

  it('Gemini .gemini/settings.json holds hooks and server: after an edit both come out, the edit stays', () => {
    const repo = TestRepo.init();
    repo.commit('init');
    expect(handoff(repo, ['init', '--agent', 'gemini']).code).toBe(0);
    const s = JSON.parse(read(repo, '.gemini/settings.json'));
    expect(s.mcpServers).toEqual({ 'git-handoff': OURS });
    expect(Object.keys(s.hooks).length).toBeGreaterThan(0);
    s.theme = 'GitHub';
    repo.write('.gemini/settings.json', `${JSON.stringify(s, null, 2)}\n`);
    expect(handoff(repo, ['uninstall']).code).toBe(0);
    expect(JSON.parse(read(repo, '.gemini/settings.json'))).toEqual({ theme: 'GitHub' });
  });

  it('refuses a git-handoff entry that runs something else, writing nothing; --no-mcp registers nothing', () => {
    const repo = TestRepo.init();
    repo.commit('init');
    const theirs = '{ "mcpServers": { "git-handoff": { "command": "something-else" } } }\n';
    repo.write('.mcp.json', theirs);
    const r = handoff(repo, ['init', '--agent', 'claude']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('.mcp.json: mcpServers.git-handoff is there already and runs something else');
    expect(read(repo, '.mcp.json')).toBe(theirs);
    expect(existsSync(join(repo.dir, '.claude/settings.local.json'))).toBe(false);

    const other = TestRepo.init();
    other.commit('init');
    expect(handoff(other, ['init', '--agent', 'claude', '--agent', 'gemini', '--no-mcp']).code).toBe(0);
    expect(existsSync(join(other.dir, '.mcp.json'))).toBe(false);
    expect(JSON.parse(read(other, '.gemini/settings.json')).mcpServers).toBeUndefined();
  });
});
