/** `git handoff -h` lists the commands in groups, as `git -h` does, not as one flat list (issue 25). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { handoff } from '../helpers/cli.js';
import { TestRepo } from '../helpers/repo.js';

const GROUPS: [string, string[]][] = [
  ['everyday', ['init', 'show', 'write', 'log', 'diff', 'uninstall']],
  ['history', ['search', 'view', 'export', 'import']],
  ['sync and repair', ['sync', 'doctor', 'purge', 'key']],
  ['agents', ['mcp', 'classify', 'relay', 'ack']],
  ['work items', ['claim', 'doc', 'status', 'seed', 'accept', 'authorize', 'reopen', 'policy']],
  ['plumbing', ['hook', 'sweep']],
];

/** The overview read back: each heading (a line at the margin) with the commands indented under it. */
function sections(text: string): [string, string[]][] {
  const out: [string, string[]][] = [];
  const body = text.split('\n\n').slice(2, -1);
  for (const block of body) {
    const [title, ...rows] = block.split('\n');
    out.push([title.split(' (')[0], rows.map((r) => /^ {2}([a-z]+) {2,}\S/.exec(r)?.[1] ?? `?${r}`)]);
  }
  return out;
}

describe('git handoff -h', () => {
  const repo = TestRepo.init();

  it('lists every command once, under everyday, history, sync and repair, agents, work items and plumbing', () => {
    const r = handoff(repo, ['-h']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^usage: git handoff <command> \[options\]\n/);
    expect(r.stdout).not.toContain('commands:');
    expect(sections(r.stdout)).toEqual(GROUPS);
    expect(r.stdout).toMatch(/\nRun 'git handoff <command> -h' for a command's options\.\ngit-handoff \d/);
    // with no command at all: the same text, as a usage error
    const bare = handoff(repo, []);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe(r.stdout);
    expect(handoff(repo, ['help']).stdout).toBe(r.stdout);
  });

  it('the man page has the same groups, in the same order', () => {
    const page = readFileSync(join(inject('binDir'), '..', 'lib', 'node_modules', 'git-handoff', 'man', 'git-handoff.1'), 'utf8');
    const titles = [...page.matchAll(/^\.SS (.*)$/gm)].map((m) => m[1].split(' (')[0].toLowerCase());
    expect(titles).toEqual(GROUPS.map((g) => g[0]));
    const firstOf = (c: string) => page.indexOf(`.B git handoff ${c} [options]`);
    for (const [, commands] of GROUPS) for (let i = 1; i < commands.length; i++) expect(firstOf(commands[i - 1])).toBeLessThan(firstOf(commands[i]));
  });
});
