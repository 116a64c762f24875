import { describe, expect, it } from 'vitest';
import { AGENTS } from '../../src/agents/index.js';
import { hookEntries, jsonAnswer } from '../../src/agents/types.js';
import { mergeAgentSettings, mergeCursorHooks, unmergeAgentSettings, unmergeCursorHooks } from '../../src/agents/settings.js';

describe('hookEntries', () => {
  it('lists the agent names of our events in our order, leaving out an event the agent lacks', () => {
    expect(hookEntries({ stop: 'S', 'session-start': 'A' }, { stop: 3 })).toEqual([
      { native: 'A', event: 'session-start' },
      { native: 'S', event: 'stop', timeout: 3 },
    ]);
  });

  it('gives each adapter the entries it declared by hand before', () => {
    const names = (a: keyof typeof AGENTS) => AGENTS[a].hooks.map((h) => [h.native, h.event, h.timeout]);
    const claude = [
      ['SessionStart', 'session-start', undefined],
      ['UserPromptSubmit', 'user-prompt-submit', undefined],
      ['PreCompact', 'pre-compact', undefined],
      ['Stop', 'stop', undefined],
      ['SessionEnd', 'session-end', undefined],
    ];
    expect(names('claude')).toEqual(claude);
    expect(names('droid')).toEqual(claude);
    expect(names('codex')).toEqual([...claude.slice(0, 4), ['SessionEnd', 'session-end', 3]]);
    expect(names('gemini').map((h) => h[0])).toEqual(['SessionStart', 'BeforeAgent', 'PreCompress', 'AfterAgent', 'SessionEnd']);
    expect(names('copilot').map((h) => h[0])).toEqual(['sessionStart', 'userPromptSubmitted', 'preCompact', 'agentStop', 'sessionEnd']);
    expect(names('cursor').map((h) => h[0])).toEqual(['sessionStart', 'beforeSubmitPrompt', 'preCompact', 'stop', 'sessionEnd']);
    expect(names('opencode').map((h) => h[1])).toEqual(['session-start', 'user-prompt-submit', 'pre-compact', 'stop']);
    expect([AGENTS.claude.timeout, AGENTS.droid.timeout, AGENTS.codex.timeout, AGENTS.gemini.timeout]).toEqual([30, 30, 30, 30000]);
  });
});

describe('jsonAnswer', () => {
  it('is one JSON line, or nothing for an empty answer', () => {
    expect(jsonAnswer({})).toBe('');
    expect(jsonAnswer({ a: 'x\ny' })).toBe('{"a":"x\\ny"}\n');
  });
});

describe('one merge for grouped and flat hook lists', () => {
  const cases = [
    [
      'grouped (Claude Code)',
      mergeAgentSettings,
      unmergeAgentSettings,
      AGENTS.claude,
      '{\n    "hooks": {\n        "Stop": [{ "hooks": [{ "type": "command", "command": "theirs" }] }],\n        "Notification": []\n    },\n    "theme": "dark"\n}\n',
    ],
    [
      'flat (Cursor)',
      mergeCursorHooks,
      unmergeCursorHooks,
      AGENTS.cursor,
      '{\n  "version": 1,\n  "hooks": {\n    "stop": [{ "command": "theirs" }],\n    "afterFileEdit": []\n  }\n}\n',
    ],
  ] as const;

  it.each(cases)(
    '%s: adds ours once, and taking them out gives back the same content, an empty list of theirs kept',
    (_name, merge, unmerge, adapter, existing) => {
      const merged = merge(existing, adapter, 'f');
      expect(merged.changed).toBe(true);
      expect(merge(merged.text, adapter, 'f')).toEqual({ text: merged.text, changed: false });
      const back = unmerge(merged.text, adapter, 'f', { createdByInit: false });
      expect(back.changed).toBe(true);
      expect(JSON.parse(back.text!)).toEqual(JSON.parse(existing));
      expect(back.text!.split('\n')[1].match(/^ */)![0]).toBe(existing.split('\n')[1].match(/^ */)![0]);
    },
  );

  it.each(cases)('%s: a file init created and that holds only ours is removed', (_name, merge, unmerge, adapter) => {
    expect(unmerge(merge(null, adapter, 'f').text, adapter, 'f', { createdByInit: true })).toEqual({ text: null, changed: true });
  });

  it('the flat shape versions a file it creates; the grouped one does not', () => {
    expect(Object.keys(JSON.parse(mergeCursorHooks(null, AGENTS.cursor, 'f').text!))).toEqual(['version', 'hooks']);
    expect(Object.keys(JSON.parse(mergeAgentSettings(null, AGENTS.claude, 'f').text!))).toEqual(['hooks']);
  });
});
