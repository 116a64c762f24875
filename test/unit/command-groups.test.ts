import { describe, expect, it } from 'vitest';
import { COMMAND_GROUPS, COMMANDS } from '../../src/commands/registry.js';

describe('the groups of git handoff -h', () => {
  it('hold every command exactly once, and only commands that exist', () => {
    const listed = COMMAND_GROUPS.flatMap((g) => g.commands);
    expect([...listed].sort()).toEqual(Object.keys(COMMANDS).sort());
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('open with what a newcomer needs, as git -h does', () => {
    expect(COMMAND_GROUPS.map((g) => g.title.split(' (')[0])).toEqual(['everyday', 'history', 'sync and repair', 'agents', 'work items', 'plumbing']);
    expect(COMMAND_GROUPS[0].commands.slice(0, 5)).toEqual(['init', 'show', 'write', 'log', 'diff']);
  });
});
