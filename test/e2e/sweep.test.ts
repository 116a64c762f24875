import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, utimesSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { cliPath, handoff } from '../helpers/cli.js';
import { commitWithHooks, gitWithHooks, handoffLines } from '../helpers/hooks.js';

const MIN = 60_000;
const isoMin = (ms: number) => new Date(ms).toISOString().slice(0, 16) + 'Z';
const topic = (fm: string, entries: string[]) => `---\n${fm}\n---\n# notes\n\n${entries.map((e) => `## ${e}\n\nsaid and decided\n`).join('\n')}`;

/** A repository with one topic file for each branch of the rule. */
function cadenceRepo(): TestRepo {
  const repo = TestRepo.init();
  const now = Date.now();
  repo.commit('chore: start', {
    'cadence/streaming/mature.md': topic('topic: mature\nstatus: active\nfidelity: Standard', ['first undated', 'second undated']),
    'cadence/streaming/done.md': topic('topic: done\nstatus: consolidated\nfidelity: High', ['x']),
  });
  repo.write('cadence/streaming/high.md', topic('topic: high\nstatus: active\nfidelity: High', [`${isoMin(now)} only entry`]));
  repo.write(
    'cadence/streaming/fresh.md',
    topic('topic: fresh\nstatus: active\nfidelity: Standard', [`${isoMin(now - 120 * MIN)} a`, `${isoMin(now - 2 * MIN)} b`]),
  );
  repo.write('cadence/streaming/new.md', topic('topic: new\nstatus: active', ['undated one', 'undated two']));
  repo.write('cadence/streaming/cont.md', topic('topic: cont\nstatus: active\nfidelity: Light', ['one']));
  repo.write('cadence/streaming/ref.md', topic('topic: ref\nstatus: active\nfidelity: Light', ['one']));
  repo.write('cadence/streaming/closed.md', topic('topic: closed\nstatus: active\nfidelity: Light\nclosing: true', ['one']));
  repo.write('cadence/streaming/single.md', topic('topic: single\nstatus: active\nfidelity: Light', [`${isoMin(now - 300 * MIN)} one`]));
  repo.write('cadence/_ACTIVE.md', 'Current continuation: cadence/streaming/cont.md\n');
  return repo;
}

describe('git handoff sweep', () => {
  it('plans every branch of the consolidation rule, dates entries, and hints at a bare .handoff/', () => {
    const repo = cadenceRepo();
    handoff(repo, ['write'], { input: 'summary: s\ncontinuation_refs: [cadence/streaming/ref.md]\n' });
    const r = handoff(repo, ['sweep', '--json']);
    expect(r.code).toBe(0);
    const byPath = Object.fromEntries(r.json.topics.map((t: any) => [t.path.replace('cadence/streaming/', ''), t]));
    expect(Object.keys(byPath)).toEqual(['closed.md', 'cont.md', 'fresh.md', 'high.md', 'mature.md', 'new.md', 'ref.md', 'single.md']);
    expect(Object.keys(r.json.topics[0])).toEqual(['path', 'topic', 'fidelity', 'entries', 'newest', 'action', 'reason']);
    const verdict = (p: string) => [byPath[p].action, byPath[p].reason];
    expect(verdict('high.md')).toEqual(['consolidate', 'fidelity High']);
    expect(verdict('closed.md')).toEqual(['consolidate', 'closed by the user']);
    expect(verdict('cont.md')).toEqual(['consolidate', 'the current continuation']);
    expect(verdict('ref.md')).toEqual(['consolidate', 'the current continuation']);
    expect(verdict('single.md')).toEqual(['skip', 'fewer than 2 entries']);
    expect(byPath['fresh.md'].action).toBe('skip');
    expect(byPath['fresh.md'].reason).toMatch(/^newest entry under 10 minutes old/);
    expect(byPath['new.md'].action).toBe('skip'); // undated, never committed: its mtime (now)
    expect(byPath['mature.md'].action).toBe('consolidate');
    // Undated entries of a committed file take its last commit time.
    const committed = Number(repo.git('log', '-1', '--format=%ct', '--', 'cadence/streaming/mature.md').trim()) * 1000;
    expect(byPath['mature.md'].newest).toBe(new Date(committed).toISOString());
    expect(byPath['mature.md']).toMatchObject({ topic: 'mature', fidelity: 'Standard', entries: 2 });
    expect(r.json.hint).toBeNull();

    // An uncommitted, undated file whose mtime is old enough is consolidated.
    const old = (Date.now() - 60 * MIN) / 1000;
    utimesSync(join(repo.dir, 'cadence/streaming/new.md'), old, old);
    expect(handoff(repo, ['sweep', '--json']).json.topics.find((t: any) => t.path.endsWith('new.md')).action).toBe('consolidate');

    mkdirSync(join(repo.dir, '.handoff'));
    const h = handoff(repo, ['sweep', '--json']).json;
    expect(h.hint).toContain('cadence/.handoff/');
    const human = handoff(repo, ['sweep']);
    expect(human.stdout).toContain('consolidate cadence/streaming/high.md (high; High; 1 entry): fidelity High');
    expect(human.stdout).toContain('git handoff write --produced');
    expect(human.stdout).toContain('hint: a bare .handoff/ folder');
  });

  it('write --produced fills consolidation', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    const w = handoff(repo, ['write', '--summary', 's', '--produced', 'cadence/discussions/a.md', '--produced', 'cadence/discussions/b.md', '--json']);
    expect(w.json.handoff.consolidation).toEqual({ triggered: true, produced: ['cadence/discussions/a.md', 'cadence/discussions/b.md'] });
    expect(handoff(repo, ['write', '--json'], { input: 'summary: fresh\n' }).json.handoff.consolidation).toEqual({ triggered: false, produced: [] });
  });
});

describe('prepare-commit-msg: the sweep before a commit', () => {
  it('prints the plan and lets the commit through; strict stops it, naming each topic; quiet in a rebase', () => {
    const repo = cadenceRepo();
    repo.git('add', '-A');
    handoff(repo, ['init']);
    const r = commitWithHooks(repo, 'feat: topics');
    expect(r.code).toBe(0);
    const lines = handoffLines(r.stderr);
    expect(lines[0]).toMatch(/^git-handoff: fidelity sweep: \d+ topics to consolidate before the next handoff:$/);
    expect(r.stderr).toContain('  cadence/streaming/high.md (high): fidelity High');
    expect(r.stderr).not.toContain('fresh.md');

    repo.git('config', 'handoff.sweep.strict', 'true');
    const before = repo.head();
    const stopped = commitWithHooks(repo, 'feat: stopped', { 'x.txt': 'x\n' });
    expect(stopped.code).not.toBe(0);
    expect(stopped.head).toBe(before);
    const stop = handoffLines(stopped.stderr);
    expect(stop).toHaveLength(1);
    expect(stop[0]).toMatch(/^git-handoff: commit stopped by the fidelity sweep \(handoff.sweep.strict\): consolidate /);
    for (const t of ['closed', 'cont', 'high', 'mature']) expect(stop[0]).toContain(`cadence/streaming/${t}.md (${t})`);
    expect(stop[0]).not.toContain('single.md');

    expect(commitWithHooks(repo, 'feat: skipped', {}, { env: { HANDOFF_SKIP: '1' } }).code).toBe(0);

    // A rebase (and a cherry-pick) in progress: the sweep stays quiet, strict or not.
    repo.git('checkout', '-q', '-b', 'side', 'HEAD~1');
    expect(repo.gitRaw(['commit', '-q', '--allow-empty', '-m', 'feat: side'], { env: { HANDOFF_SKIP: '1' } }).status).toBe(0);
    const pick = gitWithHooks(repo, ['cherry-pick', '--allow-empty', 'main']);
    expect(pick.code).toBe(0);
    expect(handoffLines(pick.stderr)).toEqual([]);
    const rebase = gitWithHooks(repo, ['rebase', '--empty=keep', 'main']);
    expect(rebase.code).toBe(0);
    expect(handoffLines(rebase.stderr)).toEqual([]);
  });

  it('an ordinary commit starts git-handoff once (the shim answers prepare-commit-msg itself)', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    handoff(repo, ['init']);
    const bin = tempDir('handoff-spy-');
    const log = join(bin, 'calls.log');
    writeFileSync(join(bin, 'git-handoff'), `#!/bin/sh\necho "$*" >> '${log}'\n`);
    chmodSync(join(bin, 'git-handoff'), 0o755);
    const env = { PATH: `${bin}:${cliPath()}` };
    expect(commitWithHooks(repo, 'feat: one', { 'a.txt': 'a\n' }, { env }).code).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('hook post-commit\n');
    mkdirSync(join(repo.dir, 'cadence/streaming'), { recursive: true });
    expect(commitWithHooks(repo, 'feat: two', {}, { env }).code).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('hook post-commit\nhook prepare-commit-msg .git/COMMIT_EDITMSG message\nhook post-commit\n');
  });
});
