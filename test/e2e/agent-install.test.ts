/**
 * `git handoff init --agent claude|codex|gemini` merges into the agents' own settings files
 * without losing a key, adds the trigger line once, is idempotent, and `uninstall` takes
 * back exactly what it added.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo } from '../helpers/repo.js';
import { cliPath, handoff } from '../helpers/cli.js';

const TRIGGER = 'session handoff: read on start, write on end';

const CLAUDE_SETTINGS = `{
    "model": "opus",
    "permissions": { "allow": ["Bash(npm test)"], "deny": [] },
    "hooks": {
        "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "./guard.sh" }] }],
        "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }]
    },
    "statusLine": { "type": "command", "command": "echo hi" }
}
`;

function snapshot(repo: TestRepo, paths: string[]): Record<string, string | null> {
  return Object.fromEntries(paths.map((p) => [p, existsSync(join(repo.dir, p)) ? readFileSync(join(repo.dir, p), 'utf8') : null]));
}

const read = (repo: TestRepo, p: string) => readFileSync(join(repo.dir, p), 'utf8');
const json = (repo: TestRepo, p: string) => JSON.parse(read(repo, p));
const commands = (settings: any, event: string): string[] => (settings.hooks[event] ?? []).flatMap((g: any) => g.hooks.map((h: any) => h.command));

describe('init --agent', () => {
  it('Claude Code: merges into .claude/settings.local.json keeping every key and hook, trigger line once, idempotent, undone exactly', () => {
    const repo = TestRepo.init();
    repo.commit('init', { 'CLAUDE.md': '# Project rules\n\nBe terse.\n', '.gitignore': 'node_modules/\n' });
    repo.write('.claude/settings.local.json', CLAUDE_SETTINGS);
    const files = ['.claude/settings.local.json', '.claude/settings.json', 'CLAUDE.md', '.git/info/exclude', '.mcp.json'];
    const before = snapshot(repo, files);

    const dry = handoff(repo, ['init', '--agent', 'claude', '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect(dry.json.steps.filter((s: any) => s.installer === 'agent-claude' && s.path).map((s: any) => s.path.replace(`${repo.dir}/`, ''))).toEqual([
      '.claude/settings.local.json',
      '.git/info/exclude',
      'CLAUDE.md',
      '.mcp.json',
      '.git/info/exclude',
    ]);
    expect(snapshot(repo, files)).toEqual(before);

    const r = handoff(repo, ['init', '--agent', 'claude']);
    expect(r.code, r.stderr).toBe(0);
    const s = json(repo, '.claude/settings.local.json');
    const orig = JSON.parse(CLAUDE_SETTINGS);
    expect(s.model).toBe(orig.model);
    expect(s.permissions).toEqual(orig.permissions);
    expect(s.statusLine).toEqual(orig.statusLine);
    expect(s.hooks.PreToolUse).toEqual(orig.hooks.PreToolUse);
    expect(commands(s, 'Stop')).toEqual(['say done', 'git-handoff-hook stop --agent claude']);
    for (const [ev, ours] of [
      ['SessionStart', 'session-start'],
      ['UserPromptSubmit', 'user-prompt-submit'],
      ['PreCompact', 'pre-compact'],
      ['SessionEnd', 'session-end'],
    ]) {
      expect(commands(s, ev)).toEqual([`git-handoff-hook ${ours} --agent claude`]);
    }
    expect(read(repo, '.claude/settings.local.json')).toMatch(/^\{\n {4}"model"/); // the file's indentation kept
    expect(read(repo, 'CLAUDE.md')).toBe(`# Project rules\n\nBe terse.\n\n${TRIGGER}\n`);
    expect(read(repo, '.git/info/exclude')).toMatch(/\n\/\.claude\/settings\.local\.json\n\/\.mcp\.json\n$/);
    expect(json(repo, '.mcp.json')).toEqual({ mcpServers: { 'git-handoff': { type: 'stdio', command: 'git', args: ['handoff', 'mcp'] } } });
    expect(repo.git('status', '--porcelain')).not.toContain('settings.local.json');
    expect(existsSync(join(repo.dir, '.git/hooks/post-commit'))).toBe(true);

    const installed = snapshot(repo, files);
    const again = handoff(repo, ['init', '--agent', 'claude']);
    expect(again.stdout).toContain('nothing changed');
    expect(snapshot(repo, files)).toEqual(installed);

    const u = handoff(repo, ['uninstall']);
    expect(u.code, u.stderr).toBe(0);
    expect(snapshot(repo, files)).toEqual(before);
  });

  it('--shared writes the committed .claude/settings.json, and keeps the hooks in one place', () => {
    const repo = TestRepo.init();
    repo.commit('init');
    handoff(repo, ['init', '--agent', 'claude']);
    expect(commands(json(repo, '.claude/settings.local.json'), 'SessionStart')).toHaveLength(1);
    const r = handoff(repo, ['init', '--agent', 'claude', '--shared']);
    expect(r.stdout).toContain('move the git-handoff hooks out of .claude/settings.local.json');
    expect(commands(json(repo, '.claude/settings.json'), 'SessionStart')).toEqual(['git-handoff-hook session-start --agent claude']);
    expect(json(repo, '.claude/settings.local.json')).toEqual({});
    handoff(repo, ['uninstall']);
    for (const p of ['.claude/settings.json', '.claude/settings.local.json', 'CLAUDE.md', '.claude']) expect(existsSync(join(repo.dir, p)), p).toBe(false);
  });

  it('uninstall removes the folders init created once they are empty, and only those', () => {
    const repo = TestRepo.init();
    repo.commit('init');
    repo.write('.gemini/keep.txt', 'mine\n');
    handoff(repo, ['init', '--agent', 'claude', '--agent', 'codex', '--agent', 'gemini']);
    for (const d of ['.claude', '.codex', '.gemini']) expect(existsSync(join(repo.dir, d)), d).toBe(true);
    repo.write('.codex/notes.txt', 'written after init\n');
    const u = handoff(repo, ['uninstall']);
    expect(u.code, u.stderr).toBe(0);
    expect(existsSync(join(repo.dir, '.claude'))).toBe(false);
    expect(readFileSync(join(repo.dir, '.codex/notes.txt'), 'utf8')).toBe('written after init\n');
    expect(existsSync(join(repo.dir, '.codex/hooks.json'))).toBe(false);
    expect(readFileSync(join(repo.dir, '.gemini/keep.txt'), 'utf8')).toBe('mine\n');
    expect(existsSync(join(repo.dir, '.gemini/settings.json'))).toBe(false);
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('?? .codex/notes.txt\n?? .gemini/keep.txt\n');
  });

  it('Codex: .codex/hooks.json, and in config.toml only the MCP server (no deprecated codex_hooks line); Gemini: .gemini/settings.json with its own event names and the MCP server', () => {
    const repo = TestRepo.init();
    repo.commit('init', { 'AGENTS.md': '# Agents\n' });
    repo.write('.codex/config.toml', 'model = "o3"\n\n[features]\nweb_search_request = true\n');
    repo.write(
      '.gemini/settings.json',
      '{\n  "theme": "GitHub",\n  "hooks": { "BeforeTool": [{ "matcher": "run_shell_command", "hooks": [{ "type": "command", "command": "./check.sh" }] }] }\n}\n',
    );
    const files = ['.codex/hooks.json', '.codex/config.toml', 'AGENTS.md', '.gemini/settings.json', 'GEMINI.md'];
    const before = snapshot(repo, files);
    const r = handoff(repo, ['init', '--agent', 'codex', '--agent', 'gemini']);
    expect(r.code, r.stderr).toBe(0);
    const c = json(repo, '.codex/hooks.json');
    expect(Object.keys(c.hooks)).toEqual(['SessionStart', 'UserPromptSubmit', 'PreCompact', 'Stop', 'SessionEnd']);
    expect(commands(c, 'Stop')).toEqual(['git-handoff-hook stop --agent codex']);
    // Codex clamps a SessionEnd hook's timeout to 3 s and warns about a longer one
    expect(c.hooks.SessionEnd[0].hooks[0].timeout).toBe(3);
    expect(read(repo, '.codex/config.toml')).toBe(
      'model = "o3"\n\n[features]\nweb_search_request = true\n\n[mcp_servers.git-handoff]\ncommand = "git"\nargs = ["handoff", "mcp"]\n',
    );
    expect(read(repo, 'AGENTS.md')).toBe(`# Agents\n\n${TRIGGER}\n`);
    const g = json(repo, '.gemini/settings.json');
    expect(g.theme).toBe('GitHub');
    expect(commands(g, 'BeforeTool')).toEqual(['./check.sh']);
    expect(commands(g, 'BeforeAgent')).toEqual(['git-handoff-hook user-prompt-submit --agent gemini']);
    expect(commands(g, 'AfterAgent')).toEqual(['git-handoff-hook stop --agent gemini']);
    expect(g.hooks.SessionStart[0].hooks[0]).toMatchObject({ name: 'git-handoff-session-start', timeout: 30000 });
    expect(read(repo, 'GEMINI.md')).toBe(`${TRIGGER}\n`);
    expect(g.mcpServers).toEqual({ 'git-handoff': { command: 'git', args: ['handoff', 'mcp'] } });
    expect(r.stdout).toMatch(
      /note: Codex runs a project's hooks only in a trusted project, once you trust each hook: .*headless `codex exec` skips untrusted hooks/,
    );
    expect(handoff(repo, ['init', '--agent', 'codex,gemini']).stdout).toContain('nothing changed');
    handoff(repo, ['uninstall']);
    expect(snapshot(repo, files)).toEqual(before);
  });

  it('uninstall after the user changed a file takes out only our part', () => {
    const repo = TestRepo.init();
    repo.commit('init');
    repo.write('.claude/settings.json', '{"model":"opus"}\n');
    handoff(repo, ['init', '--agent', 'claude', '--shared']);
    const s = json(repo, '.claude/settings.json');
    s.env = { DEBUG: '1' };
    s.hooks.Stop.push({ hooks: [{ type: 'command', command: 'notify-send done' }] });
    repo.write('.claude/settings.json', `${JSON.stringify(s, null, 2)}\n`);
    repo.write('CLAUDE.md', `# Notes added later\n\n${TRIGGER}\n`);
    const u = handoff(repo, ['uninstall']);
    expect(u.code, u.stderr).toBe(0);
    expect(json(repo, '.claude/settings.json')).toEqual({
      model: 'opus',
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }] },
      env: { DEBUG: '1' },
    });
    expect(read(repo, 'CLAUDE.md')).toBe('# Notes added later\n');
  });

  it('uninstall without an install record still takes our hook entries out of the settings files', () => {
    const repo = TestRepo.init();
    repo.commit('init');
    repo.write('.codex/hooks.json', '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"./mine.sh"}]}]}}\n');
    handoff(repo, ['init', '--agent', 'codex']);
    rmSync(join(repo.dir, '.git/handoff/install.json'));
    const u = handoff(repo, ['uninstall']);
    expect(u.code, u.stderr).toBe(0);
    expect(json(repo, '.codex/hooks.json')).toEqual({ hooks: { Stop: [{ hooks: [{ type: 'command', command: './mine.sh' }] }] } });
  });

  it('refuses what it cannot merge into, and unknown agents, writing nothing', () => {
    const repo = TestRepo.init();
    repo.commit('init');
    repo.write('.gemini/settings.json', '{ "theme": "x", }');
    const bad = handoff(repo, ['init', '--agent', 'gemini']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/\.gemini\/settings\.json is not valid JSON/);
    expect(read(repo, '.gemini/settings.json')).toBe('{ "theme": "x", }');
    expect(existsSync(join(repo.dir, 'GEMINI.md'))).toBe(false);
    expect(existsSync(join(repo.dir, '.git/hooks/post-commit'))).toBe(false);
    const unknown = handoff(repo, ['init', '--agent', 'windsurf']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown agent 'windsurf'; --agent takes claude, codex, gemini, cursor, copilot, opencode or droid/);
  });

  it('the installed command works as the agent runs it', () => {
    const repo = TestRepo.init();
    repo.commit('init');
    handoff(repo, ['init', '--agent', 'claude']);
    handoff(repo, ['write', '--summary', 'ready for the next session']);
    const cmd = commands(json(repo, '.claude/settings.local.json'), 'SessionStart')[0];
    const r = spawnSync('sh', ['-c', cmd], {
      cwd: repo.dir,
      env: { ...repo.tick(), PATH: cliPath() },
      input: JSON.stringify({ session_id: 'x', transcript_path: '/t', cwd: repo.dir, hook_event_name: 'SessionStart', source: 'startup' }),
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain('ready for the next session');
  });
});
