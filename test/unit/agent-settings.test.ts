import { describe, expect, it } from 'vitest';
import { AGENTS } from '../../src/agents/index.js';
import { TRIGGER_LINE } from '../../src/agents/types.js';
import { addTriggerLine, hookCommand, mergeAgentSettings, removeTriggerLine, unmergeAgentSettings, SettingsError } from '../../src/agents/settings.js';
import { disableCodexHooks } from '../../src/agents/codex-features.js';

const existing = `{
    "model": "opus",
    "permissions": { "allow": ["Bash(npm test)"] },
    "hooks": {
        "PreToolUse": [{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "./guard.sh" }] }],
        "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }]
    },
    "env": { "FOO": "1" }
}
`;

describe('mergeAgentSettings', () => {
  it('Claude Code: adds the five events, keeps every existing key and hook, keeps the indentation', () => {
    const r = mergeAgentSettings(existing, AGENTS.claude, '.claude/settings.local.json');
    expect(r.changed).toBe(true);
    const s = JSON.parse(r.text!);
    expect(Object.keys(s)).toEqual(['model', 'permissions', 'hooks', 'env']);
    expect(s.model).toBe('opus');
    expect(s.permissions).toEqual({ allow: ['Bash(npm test)'] });
    expect(s.env).toEqual({ FOO: '1' });
    expect(s.hooks.PreToolUse).toEqual([{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh' }] }]);
    expect(s.hooks.Stop).toEqual([
      { hooks: [{ type: 'command', command: 'say done' }] },
      { hooks: [{ type: 'command', command: 'git-handoff-hook stop --agent claude', timeout: 30 }] },
    ]);
    for (const ev of ['SessionStart', 'UserPromptSubmit', 'PreCompact', 'SessionEnd']) expect(s.hooks[ev]).toHaveLength(1);
    expect(s.hooks.SessionStart[0].hooks[0].command).toBe('git-handoff-hook session-start --agent claude');
    expect(r.text).toMatch(/^\{\n {4}"model"/);
    expect(r.text!.endsWith('}\n')).toBe(true);
  });

  it('is idempotent: a second merge changes nothing', () => {
    const once = mergeAgentSettings(existing, AGENTS.claude, 'x').text;
    expect(mergeAgentSettings(once, AGENTS.claude, 'x')).toEqual({ text: once, changed: false });
  });

  it('Codex has SessionEnd with a 3 s timeout; Gemini uses its own event names, names its hooks and counts milliseconds', () => {
    const c = JSON.parse(mergeAgentSettings(null, AGENTS.codex, '.codex/hooks.json').text!);
    expect(Object.keys(c.hooks)).toEqual(['SessionStart', 'UserPromptSubmit', 'PreCompact', 'Stop', 'SessionEnd']);
    expect(c.hooks.SessionEnd[0].hooks[0].timeout).toBe(3);
    const g = JSON.parse(mergeAgentSettings('{"theme":"dark"}', AGENTS.gemini, '.gemini/settings.json').text!);
    expect(g.theme).toBe('dark');
    expect(Object.keys(g.hooks)).toEqual(['SessionStart', 'BeforeAgent', 'PreCompress', 'AfterAgent', 'SessionEnd']);
    expect(g.hooks.BeforeAgent[0].hooks[0]).toEqual({
      name: 'git-handoff-user-prompt-submit',
      type: 'command',
      command: hookCommand('user-prompt-submit', 'gemini'),
      timeout: 30000,
    });
  });

  it('refuses settings it cannot merge into without guessing', () => {
    expect(() => mergeAgentSettings('{oops', AGENTS.claude, 'p')).toThrow(SettingsError);
    expect(() => mergeAgentSettings('[]', AGENTS.claude, 'p')).toThrow(/not a JSON object/);
    expect(() => mergeAgentSettings('{"hooks":{"Stop":{}}}', AGENTS.claude, 'p')).toThrow(/hooks.Stop is not a list/);
  });
});

describe('unmergeAgentSettings', () => {
  it('removes exactly our entries and what they alone made', () => {
    const merged = mergeAgentSettings(existing, AGENTS.claude, 'x').text;
    const back = unmergeAgentSettings(merged, AGENTS.claude, 'x', { createdByInit: false });
    expect(back.changed).toBe(true);
    expect(JSON.parse(back.text!)).toEqual(JSON.parse(existing));
    // byte-exact restoration is the installer's (it keeps what was there); here: same data, same indent
    expect(back.text).toMatch(/^\{\n {4}"model"/);
  });

  it('leaves another agent’s entries and a user’s edits alone; removes a file init created once it is empty', () => {
    const both = mergeAgentSettings(mergeAgentSettings(null, AGENTS.claude, 'x').text, AGENTS.codex, 'x').text;
    const onlyCodex = unmergeAgentSettings(both, AGENTS.claude, 'x', { createdByInit: true });
    expect(JSON.stringify(JSON.parse(onlyCodex.text!))).not.toContain('--agent claude');
    expect(JSON.stringify(JSON.parse(onlyCodex.text!))).toContain('--agent codex');
    expect(unmergeAgentSettings(mergeAgentSettings(null, AGENTS.claude, 'x').text, AGENTS.claude, 'x', { createdByInit: true })).toEqual({
      text: null,
      changed: true,
    });
    expect(unmergeAgentSettings(existing, AGENTS.claude, 'x', { createdByInit: false })).toEqual({ text: existing, changed: false });
  });
});

describe('Codex feature switch (what earlier versions added, taken out again)', () => {
  it('takes out the line, and the table it added, or puts back the line it replaced', () => {
    expect(disableCodexHooks('[features]\ncodex_hooks = true\n', null, true)).toEqual({ text: null, changed: true });
    const cfg = 'model = "o4"\n\n[features]\nweb_search = true\n\n[tui]\ntheme = "x"\n';
    expect(disableCodexHooks('model = "o4"\n\n[features]\ncodex_hooks = true\nweb_search = true\n\n[tui]\ntheme = "x"\n', null, false).text).toBe(cfg);
    expect(disableCodexHooks('model = "o4"\n[features]\ncodex_hooks = true\n', 'codex_hooks = false', false).text).toBe(
      'model = "o4"\n[features]\ncodex_hooks = false\n',
    );
    expect(disableCodexHooks('model = "o4"\n\n[features]\ncodex_hooks = true\n', null, false).text).toBe('model = "o4"\n');
    // the user had it on already: nothing of ours to take out
    const on = '[features]\ncodex_hooks = true\n';
    expect(disableCodexHooks(on, 'true', false)).toEqual({ text: on, changed: false });
    // a [features] header inside a multi-line string is no table
    const prompt = 'x = """\n[features]\ncodex_hooks = true\n"""\n';
    expect(disableCodexHooks(prompt, null, false)).toEqual({ text: prompt, changed: false });
  });
});

describe('trigger line', () => {
  it('is added once and removed again', () => {
    expect(addTriggerLine(null)).toEqual({ text: `${TRIGGER_LINE}\n`, changed: true });
    const md = '# Project\n\nRules.\n';
    const a = addTriggerLine(md);
    expect(a.text).toBe(`# Project\n\nRules.\n\n${TRIGGER_LINE}\n`);
    expect(addTriggerLine(a.text).changed).toBe(false);
    expect(addTriggerLine(`x\nSession handoff:  read on start, write on end\n`).changed).toBe(false);
    expect(removeTriggerLine(a.text, false).text).toBe(md);
    expect(removeTriggerLine(`${TRIGGER_LINE}\n`, true)).toEqual({ text: null, changed: true });
  });
});
