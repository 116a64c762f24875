/**
 * Cursor, Copilot CLI, OpenCode and Droid installed and answered in each one's
 * documented format; one hook, one host; the Codex and Gemini fixes; doctor and Codex trust.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';

const TRIGGER = 'session handoff: read on start, write on end';

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (p === '.git') continue;
      if (e.isDirectory()) walk(p);
      else out[p] = readFileSync(join(dir, p), 'utf8');
    }
  };
  walk('');
  out['.git/info/exclude'] = existsSync(join(dir, '.git/info/exclude')) ? readFileSync(join(dir, '.git/info/exclude'), 'utf8') : '';
  return out;
}

const json = (repo: TestRepo, p: string) => JSON.parse(readFileSync(join(repo.dir, p), 'utf8'));

function hook(repo: TestRepo, agent: string, event: string, input: object, env: NodeJS.ProcessEnv = {}) {
  const r = handoff(repo, ['hook', event, '--agent', agent], { input: JSON.stringify(input), env });
  return { ...r, out: r.stdout ? JSON.parse(r.stdout) : null };
}

function project(file = 'AGENTS.md'): TestRepo {
  const repo = TestRepo.init();
  repo.commit('feat: start', { [file]: `# Rules\n\n${TRIGGER}\n` });
  handoff(repo, ['write', '--summary', 'half done', '--next-step', 'wire the CLI']);
  return repo;
}

describe('init --agent for the new agents', () => {
  it('Cursor, Copilot CLI, OpenCode, Droid: their own files and shapes, kept out of git unless --shared, idempotent, uninstall byte-exact', () => {
    const repo = TestRepo.init();
    repo.commit('init', { 'AGENTS.md': '# Agents\n' });
    repo.write('.cursor/hooks.json', '{\n    "version": 1,\n    "hooks": { "afterFileEdit": [{ "command": "./fmt.sh" }] }\n}\n');
    repo.write('.factory/hooks.json', '{\n  "PreToolUse": [{ "matcher": "Execute", "hooks": [{ "type": "command", "command": "./guard.sh" }] }]\n}\n');
    const before = snapshot(repo.dir);
    const r = handoff(repo, ['init', '--agent', 'cursor,copilot,opencode,droid']);
    expect(r.code, r.stderr).toBe(0);

    const c = json(repo, '.cursor/hooks.json');
    expect(c.version).toBe(1);
    expect(c.hooks.afterFileEdit).toEqual([{ command: './fmt.sh' }]);
    expect(c.hooks.sessionStart).toEqual([{ command: 'git-handoff-hook session-start --agent cursor', timeout: 30 }]);
    expect(Object.keys(c.hooks)).toEqual(['afterFileEdit', 'sessionStart', 'beforeSubmitPrompt', 'preCompact', 'stop', 'sessionEnd']);
    expect(readFileSync(join(repo.dir, '.cursor/hooks.json'), 'utf8')).toMatch(/^\{\n {4}"version"/);

    const g = json(repo, '.github/hooks/git-handoff.json');
    expect(g.version).toBe(1);
    expect(Object.keys(g.hooks)).toEqual(['sessionStart', 'userPromptSubmitted', 'preCompact', 'agentStop', 'sessionEnd']);
    expect(g.hooks.agentStop).toEqual([{ type: 'command', bash: 'git-handoff-hook stop --agent copilot', timeoutSec: 30 }]);

    const plugin = readFileSync(join(repo.dir, '.opencode/plugins/git-handoff.js'), 'utf8');
    expect(plugin).toMatch(/^\/\/ git-handoff: OpenCode plugin/);
    for (const h of ["'session.idle'", "'session.created'"]) expect(plugin).toContain(h);

    // Droid reads .factory/hooks.json (the event map itself) when it exists, and then not settings.json
    const d = json(repo, '.factory/hooks.json');
    expect(d.PreToolUse).toEqual([{ matcher: 'Execute', hooks: [{ type: 'command', command: './guard.sh' }] }]);
    expect(d.Stop[0].hooks[0]).toEqual({ type: 'command', command: 'git-handoff-hook stop --agent droid', timeout: 30 });
    expect(existsSync(join(repo.dir, '.factory/settings.json'))).toBe(false);
    expect(readFileSync(join(repo.dir, 'AGENTS.md'), 'utf8')).toBe(`# Agents\n\n${TRIGGER}\n`);
    // the MCP server where each reads project servers
    const server = { command: 'git', args: ['handoff', 'mcp'] };
    expect(json(repo, '.cursor/mcp.json')).toEqual({ mcpServers: { 'git-handoff': server } });
    expect(json(repo, '.mcp.json')).toEqual({ mcpServers: { 'git-handoff': { type: 'stdio', ...server } } });
    expect(json(repo, 'opencode.json')).toEqual({ mcp: { 'git-handoff': { type: 'local', command: ['git', 'handoff', 'mcp'] } } });
    expect(json(repo, '.factory/mcp.json')).toEqual({ mcpServers: { 'git-handoff': { type: 'stdio', ...server } } });
    // the files init created, and Droid's personal file, stay out of git
    const exclude = readFileSync(join(repo.dir, '.git/info/exclude'), 'utf8');
    for (const p of [
      '/.github/hooks/git-handoff.json',
      '/.opencode/plugins/git-handoff.js',
      '/.cursor/mcp.json',
      '/.mcp.json',
      '/opencode.json',
      '/.factory/mcp.json',
    ])
      expect(exclude).toContain(`${p}\n`);
    // they were there before: the user's own
    expect(exclude).not.toContain('/.cursor/hooks.json');
    expect(exclude).not.toContain('/.factory/hooks.json');
    expect(r.stdout).toMatch(/note: Copilot CLI runs repository hooks in a trusted folder/);
    expect(r.stdout).toMatch(/note: OpenCode loads plugins when it starts: restart it/);

    expect(handoff(repo, ['init', '--agent', 'cursor,copilot,opencode,droid']).stdout).toContain('nothing changed');
    expect(handoff(repo, ['uninstall']).code).toBe(0);
    expect(snapshot(repo.dir)).toEqual(before);
  });

  it('Droid without hooks.json: .factory/settings.json, kept out of git unless --shared; a file at our path that is not ours is refused', () => {
    const repo = TestRepo.init();
    repo.commit('init');
    const before = snapshot(repo.dir);
    expect(handoff(repo, ['init', '--agent', 'droid']).code).toBe(0);
    expect(json(repo, '.factory/settings.json').hooks.SessionStart[0].hooks[0].command).toBe('git-handoff-hook session-start --agent droid');
    expect(snapshot(repo.dir)['.git/info/exclude']).toContain('/.factory/settings.json\n');
    handoff(repo, ['uninstall']);
    expect(snapshot(repo.dir)).toEqual(before);
    expect(handoff(repo, ['init', '--agent', 'droid,copilot', '--shared']).code).toBe(0);
    expect(snapshot(repo.dir)['.git/info/exclude']).toBe(before['.git/info/exclude']);
    handoff(repo, ['uninstall']);
    expect(snapshot(repo.dir)).toEqual(before);

    repo.write('.github/hooks/git-handoff.json', '{"version":1,"hooks":{"sessionStart":[{"type":"command","bash":"./mine.sh"}]}}\n');
    const refused = handoff(repo, ['init', '--agent', 'copilot']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/\.github\/hooks\/git-handoff\.json exists and is not git-handoff's/);
  });

  it('Codex: init on an install of an earlier version takes its [features] codex_hooks = true line out, and uninstall still restores config.toml byte for byte', () => {
    const repo = TestRepo.init();
    repo.commit('init', { 'AGENTS.md': '# Agents\n' });
    const original = 'model = "o3"\n\n[features]\nweb_search_request = true\n';
    repo.write('.codex/config.toml', original);
    expect(handoff(repo, ['init', '--agent', 'codex', '--no-mcp']).code).toBe(0);
    // what the earlier version did on top: the line, recorded as its change
    const withLine = 'model = "o3"\n\n[features]\ncodex_hooks = true\nweb_search_request = true\n';
    repo.write('.codex/config.toml', withLine);
    const recordPath = join(repo.dir, '.git/handoff/install.json');
    const record = JSON.parse(readFileSync(recordPath, 'utf8'));
    record.files.push({
      installer: 'agent-codex',
      base: 'worktree',
      path: '.codex/config.toml',
      before: { data: Buffer.from(original).toString('base64'), mode: 0o644 },
      after: createHash('sha1').update(withLine).digest('hex'),
      recipe: { part: 'codex-feature', previous: null, created: false },
    });
    writeFileSync(recordPath, JSON.stringify(record));
    const again = handoff(repo, ['init', '--agent', 'codex', '--no-mcp']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/take \[features\] codex_hooks = true out of \.codex\/config\.toml/);
    expect(readFileSync(join(repo.dir, '.codex/config.toml'), 'utf8')).toBe(original);
    expect(handoff(repo, ['uninstall']).code).toBe(0);
    expect(readFileSync(join(repo.dir, '.codex/config.toml'), 'utf8')).toBe(original);
    expect(existsSync(join(repo.dir, '.codex/hooks.json'))).toBe(false);
  });
});

describe('the OpenCode plugin', () => {
  it('is a module that loads (OpenCode skips one that does not, without a word) and gives the hooks it documents', async () => {
    const repo = TestRepo.init();
    repo.commit('init');
    expect(handoff(repo, ['init', '--agent', 'opencode', '--no-mcp']).code).toBe(0);
    const file = join(tempDir(), 'git-handoff.mjs');
    writeFileSync(file, readFileSync(join(repo.dir, '.opencode/plugins/git-handoff.js')));
    const mod = await import(file);
    expect(Object.keys(mod)).toEqual(['GitHandoff']);
    const hooks = await mod.GitHandoff({ directory: repo.dir, worktree: repo.dir, client: {} });
    expect(Object.keys(hooks).sort()).toEqual(['chat.message', 'event', 'experimental.chat.system.transform', 'experimental.session.compacting', 'shell.env']);
    const out = { env: {} as Record<string, string> };
    await hooks['shell.env']({ cwd: repo.dir, sessionID: 'ses_1' }, out);
    expect(out.env).toEqual({ HANDOFF_SESSION_ID: 'ses_1', HANDOFF_AGENT: 'opencode' });
  });
});

describe('answers in each agent format', () => {
  it('Cursor: additional_context at sessionStart; a session-end phrase reaches the model through the stop follow-up, once; preCompact user_message', () => {
    const repo = project();
    repo.commit('feat: more', { 'b.txt': 'b\n' });
    const base = {
      conversation_id: 'cur-1',
      generation_id: 'g1',
      model: 'x',
      cursor_version: '2.1.0',
      workspace_roots: [repo.dir],
      user_email: null,
      transcript_path: null,
    };
    const s = hook(repo, 'cursor', 'sessionStart', {
      ...base,
      hook_event_name: 'sessionStart',
      session_id: 'cur-1',
      is_background_agent: false,
      composer_mode: 'agent',
    });
    expect(Object.keys(s.out)).toEqual(['additional_context']);
    expect(s.out.additional_context).toContain('next step: wire the CLI');
    expect(
      hook(repo, 'cursor', 'beforeSubmitPrompt', { ...base, hook_event_name: 'beforeSubmitPrompt', prompt: 'wrap up session', attachments: [] }).out,
    ).toEqual({ continue: true });
    const st = hook(repo, 'cursor', 'stop', { ...base, hook_event_name: 'stop', status: 'completed', loop_count: 0 });
    expect(st.out).toEqual({ followup_message: expect.stringContaining('git handoff write') });
    expect(hook(repo, 'cursor', 'stop', { ...base, hook_event_name: 'stop', status: 'completed', loop_count: 1 }).stdout).toBe('');
    expect(hook(repo, 'cursor', 'preCompact', { ...base, hook_event_name: 'preCompact', trigger: 'auto', context_usage_percent: 90 }).out).toEqual({
      user_message: expect.stringContaining('a handoff is due'),
    });
    expect(
      hook(repo, 'cursor', 'sessionEnd', { ...base, hook_event_name: 'sessionEnd', session_id: 'cur-1', reason: 'completed', duration_ms: 10 }).stdout,
    ).toBe('');
  });

  it('Copilot CLI: camelCase input, additionalContext, agentStop decision block once; OpenCode: our plugin JSON; Droid: Claude-style', () => {
    const repo = project();
    const cp = { sessionId: 'cp-1', timestamp: 1796122689165, cwd: repo.dir };
    const s = hook(repo, 'copilot', 'sessionStart', { ...cp, source: 'new', initialPrompt: 'hi' });
    expect(Object.keys(s.out)).toEqual(['additionalContext']);
    expect(s.out.additionalContext).toContain('wire the CLI');
    expect(hook(repo, 'copilot', 'userPromptSubmitted', { ...cp, prompt: 'wrap up session' }).out).toEqual({
      additionalContext: expect.stringContaining('the user is ending the session'),
    });
    expect(hook(repo, 'copilot', 'agentStop', { ...cp, stopReason: 'end_turn', stop_hook_active: false }).out).toEqual({
      decision: 'block',
      reason: expect.stringContaining('git handoff write'),
    });
    expect(hook(repo, 'copilot', 'agentStop', { ...cp, stopReason: 'end_turn', stop_hook_active: true }).stdout).toBe('');

    const oc = { host: 'opencode', cwd: repo.dir, session_id: 'ses_1' };
    expect(hook(repo, 'opencode', 'session-start', { ...oc, hook_event_name: 'session-start', source: 'startup' }).out).toEqual({
      context: expect.stringContaining('wire the CLI'),
    });
    expect(hook(repo, 'opencode', 'user-prompt-submit', { ...oc, prompt: 'hello' }).stdout).toBe('');
    expect(hook(repo, 'opencode', 'user-prompt-submit', { ...oc, prompt: 'wrap up session' }).out).toEqual({
      context: expect.stringContaining('the user is ending the session'),
    });
    expect(hook(repo, 'opencode', 'stop', oc).out).toEqual({ followup: expect.stringContaining('git handoff write') });

    const dr = { session_id: 'dr-1', transcript_path: '/home/u/.factory/sessions/dr-1.jsonl', cwd: repo.dir, permission_mode: 'auto' };
    expect(hook(repo, 'droid', 'SessionStart', { ...dr, hook_event_name: 'SessionStart', source: 'startup' }).out.hookSpecificOutput).toEqual({
      hookEventName: 'SessionStart',
      additionalContext: expect.stringContaining('wire the CLI'),
    });
  });

  it('Gemini: PreCompress with trigger auto (every turn) reminds nothing; a manual /compress does', () => {
    const repo = project('GEMINI.md');
    repo.commit('feat: more', { 'b.txt': 'b\n' });
    const base = { session_id: 'gm-1', transcript_path: '/t.json', cwd: repo.dir, hook_event_name: 'PreCompress', timestamp: '2026-01-01T00:00:00Z' };
    expect(hook(repo, 'gemini', 'PreCompress', { ...base, trigger: 'auto' }).stdout).toBe('');
    expect(hook(repo, 'gemini', 'PreCompress', { ...base, trigger: 'manual' }).out).toEqual({ systemMessage: expect.stringContaining('a handoff is due') });
  });
});

describe('one hook, one host', () => {
  it("Claude Code's hook run by Cursor answers in Cursor's format, and stays silent when Cursor's own hooks are installed: one bookmark per session", () => {
    const repo = project('CLAUDE.md');
    const cursorInput = {
      conversation_id: 'c-9',
      generation_id: 'g',
      hook_event_name: 'sessionStart',
      session_id: 'c-9',
      cursor_version: '2.1.0',
      workspace_roots: [repo.dir],
    };
    const a = hook(repo, 'claude', 'session-start', cursorInput);
    expect(Object.keys(a.out)).toEqual(['additional_context']);
    // Copilot running a .claude hook (its env marks) gets Copilot's shape
    const b = hook(
      repo,
      'claude',
      'session-start',
      { session_id: 'cp-9', cwd: repo.dir, hook_event_name: 'SessionStart', source: 'startup' },
      { COPILOT_CLI: '1', COPILOT_HOOK_DIR: join(repo.dir, '.claude') },
    );
    expect(Object.keys(b.out)).toEqual(['additionalContext']);
    // a Claude Code variable leaking into Codex changes nothing: Codex does not run .claude hooks
    const c = hook(
      repo,
      'claude',
      'session-start',
      { session_id: 'cl-9', cwd: repo.dir, hook_event_name: 'SessionStart', source: 'startup' },
      { CLAUDECODE: '1' },
    );
    expect(Object.keys(c.out)).toEqual(['hookSpecificOutput']);

    expect(handoff(repo, ['init', '--agent', 'claude,cursor']).code).toBe(0);
    const input2 = { ...cursorInput, conversation_id: 'c-10', session_id: 'c-10' };
    expect(hook(repo, 'claude', 'session-start', input2).stdout).toBe('');
    expect(hook(repo, 'cursor', 'sessionStart', input2).out.additional_context).toContain('wire the CLI');
  });

  it('a second startup of the same session gets no second bookmark; a resume does', () => {
    const repo = project('CLAUDE.md');
    const input = { session_id: 's-1', cwd: repo.dir, hook_event_name: 'SessionStart', source: 'startup' };
    expect(hook(repo, 'claude', 'session-start', input).out.hookSpecificOutput.additionalContext).toContain('wire the CLI');
    expect(hook(repo, 'claude', 'session-start', input).stdout).toBe('');
    expect(hook(repo, 'claude', 'session-start', { ...input, source: 'resume' }).out.hookSpecificOutput.additionalContext).toContain('wire the CLI');
  });
});

describe('doctor and Codex trust', () => {
  it('says when Codex will not run our hooks (project untrusted, hooks untrusted or changed since), and nothing once they are trusted', () => {
    const repo = TestRepo.init();
    repo.commit('init', { 'AGENTS.md': '# A\n' });
    expect(handoff(repo, ['init', '--agent', 'codex']).code).toBe(0);
    const codexHome = tempDir('handoff-codex-home-');
    const doctor = () => handoff(repo, ['doctor', '--json'], { env: { CODEX_HOME: codexHome } }).json.findings.filter((f: any) => f.kind === 'agent');
    // Codex never ran here: a note
    expect(doctor()).toEqual([expect.objectContaining({ level: 'note' })]);
    const hooksPath = join(repo.dir, '.codex/hooks.json');
    const hooks = JSON.parse(readFileSync(hooksPath, 'utf8')).hooks;
    const label = (e: string) => e.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
    const state = (hashOf: (e: string, h: any) => string) =>
      Object.entries(hooks)
        .map(([e, groups]: [string, any]) => `[hooks.state."${hooksPath}:${label(e)}:0:0"]\ntrusted_hash = "${hashOf(e, groups[0].hooks[0])}"\n`)
        .join('\n');
    const real = (e: string, h: any) =>
      `sha256:${createHash('sha256')
        .update(JSON.stringify({ event_name: label(e), hooks: [{ async: false, command: h.command, timeout: h.timeout, type: 'command' }] }))
        .digest('hex')}`;
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(join(codexHome, 'config.toml'), 'model = "o3"\n');
    const [f] = doctor();
    expect(f.level).toBe('problem');
    expect(f.message).toMatch(
      /Codex will not run the git-handoff hooks in \.codex\/hooks\.json \(the project is not trusted in .*config\.toml; not trusted yet: SessionStart, UserPromptSubmit, PreCompact, Stop, SessionEnd\)/,
    );
    expect(f.action).toMatch(/--dangerously-bypass-hook-trust/);
    // advice that would run the repository's own hooks says so (issue 23 point 5)
    expect(f.action).toContain("which runs every hook this repository's .codex/hooks.json names, not only ours: review them first");
    writeFileSync(join(codexHome, 'config.toml'), `[projects."${repo.dir}"]\ntrust_level = "trusted"\n\n${state(() => 'sha256:0000')}`);
    expect(doctor()[0].message).toMatch(/changed since you trusted them: SessionStart/);
    writeFileSync(join(codexHome, 'config.toml'), `[projects."${repo.dir}"]\ntrust_level = "trusted"\n\n${state(real)}`);
    expect(doctor()).toEqual([]);
  });
});
