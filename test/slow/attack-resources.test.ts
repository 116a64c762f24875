/**
 * Issue 23, point 7: bounded work on what a remote sent. A note holding a 500,000-item flow
 * list (inside handoff.maxBytes) is rendered by every reader without overflowing the stack.
 * Real git, the packed CLI.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';

describe('a note with a 500,000-item flow list', () => {
  const repo = TestRepo.init();
  repo.commit('feat: start', { 'a.txt': 'a\n' });
  repo.git('config', 'handoff.maxBytes', '4000000');
  const items = new Array(500_000).fill('a').join(', ');
  repo.gitRaw(['notes', '--ref=handoff', 'add', '-F', '-', 'HEAD'], { input: `schema: 1\nbranch: main\nsummary: long\nguards: [${items}]\n` });

  // (the exports go to a file: several MB on stdout is more than the test's pipe buffer)
  it.each([
    ['export', '-o', 'out.md'],
    ['export', '--format', 'yaml', '-o', 'out.yaml'],
    ['export', '--format', 'json', '-o', 'out.json'],
    ['show'],
    ['search', 'long'],
    ['log'],
  ])('%s answers (no internal error)', (...args) => {
    const r = handoff(repo, args);
    expect(r.stderr).not.toMatch(/internal error|call stack/);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.length + r.stderr.length).toBeGreaterThan(0);
  });

  it('export next-session lists every guard', () => {
    expect(handoff(repo, ['export', '-o', 'all.md']).code).toBe(0);
    expect(
      readFileSync(join(repo.dir, 'all.md'), 'utf8')
        .split('\n')
        .filter((l) => l === '- a'),
    ).toHaveLength(500_000);
    expect(JSON.parse(readFileSync(join(repo.dir, 'out.json'), 'utf8')).guards).toHaveLength(500_000);
  });
});
