import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { Repo } from '../../src/git/repo.js';
import { readEach, sweep } from '../../src/app/sweep.js';
import { latestCadence } from '../../src/app/continuation-refs.js';

describe('reading the topic files from inside cadence/streaming/', () => {
  it('hands over each file by name and leaves the working directory where it was', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.md'), 'alpha\n');
    writeFileSync(join(dir, 'b.md'), '\uFEFFbeta\r\n');
    const before = process.cwd();
    const seen: [string, string][] = [];
    readEach(dir, ['a.md', 'b.md'], (name, text) => {
      seen.push([name, text]);
      expect(process.cwd()).toBe(dir);
    });
    expect(seen).toEqual([
      ['a.md', 'alpha\n'],
      ['b.md', '\uFEFFbeta\r\n'],
    ]);
    expect(process.cwd()).toBe(before);
  });

  it('comes back when a file cannot be read or the caller throws', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.md'), 'alpha\n');
    const before = process.cwd();
    expect(() => readEach(dir, ['gone.md'], () => {})).toThrow(/ENOENT/);
    expect(process.cwd()).toBe(before);
    expect(() =>
      readEach(dir, ['a.md'], () => {
        throw new Error('stop');
      }),
    ).toThrow('stop');
    expect(process.cwd()).toBe(before);
  });

  it('gives in-process the plan the CLI prints, for enough files to leave the optimizing compiler out', async () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    mkdirSync(join(repo.dir, 'cadence/streaming'), { recursive: true });
    for (let i = 0; i < 320; i++) {
      const fm = `topic: t${i}\nstatus: ${i % 4 ? 'active' : 'closed'}\nfidelity: ${['Light', 'Standard', 'High'][i % 3]}${i % 7 ? '' : '\nclosing: true'}`;
      const body = i % 5 ? `## 2026-01-0${(i % 9) + 1}T10:00:00Z one\n\n\`\`\`\n## fenced\n\`\`\`\n## two #${i}\n` : '## undated\n';
      repo.write(`cadence/streaming/t${String(i).padStart(3, '0')}.md`, `---\n${fm}\n---\n${body}`);
    }
    const before = process.cwd();
    const r = await sweep(await Repo.discover(repo.dir), latestCadence);
    expect(process.cwd()).toBe(before);
    const cli = handoff(repo, ['sweep', '--json']);
    expect(cli.code).toBe(0);
    const plan = JSON.parse(JSON.stringify(r.topics));
    expect(plan).toHaveLength(240);
    // The CLI plans a moment later: an age may read one minute more.
    const age = (t: { reason: string }) => ({ ...t, reason: t.reason.replace(/\d+ (min|h|days)\b/, 'N $1') });
    expect(plan.map(age)).toEqual(cli.json.topics.map(age));
  });
});
