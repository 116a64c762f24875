import { describe, expect, it } from 'vitest';
import { handoff } from '../helpers/cli.js';
import { commitWithHooks } from '../helpers/hooks.js';
import { TestRepo, BASE_EPOCH } from '../helpers/repo.js';

const topic = (entries: string[]) =>
  `---\ntopic: division\nstatus: active\nfidelity: Standard\n---\n${entries.map((e) => `## ${e}\n\nsaid and decided\n`).join('\n')}`;
const iso = (epochS: number) => new Date(epochS * 1000).toISOString().slice(0, 16) + 'Z';

describe('the sweep closes its loop', () => {
  it('after write --produced the topic stops being proposed on every commit; the hint names that step; a newer entry proposes it again', () => {
    const repo = TestRepo.init();
    // Two entries dated before anything else happens here (the repository clock starts at BASE_EPOCH).
    const before = [`${iso(BASE_EPOCH - 7200)} the division rule`, `${iso(BASE_EPOCH - 3600)} rounding`];
    repo.commit('chore: start', { 'cadence/streaming/division.md': topic(before) });
    expect(handoff(repo, ['init']).code).toBe(0);
    expect(handoff(repo, ['write', '--summary', 'The division rule is settled.']).code).toBe(0);

    const first = commitWithHooks(repo, 'feat: divide', { 'src/div.ts': 'export {}\n' });
    expect(first.stderr).toContain('cadence/streaming/division.md (division)');
    // The hint itself says which step makes the topic stop being proposed.
    expect(first.stderr).toContain("record it with 'git handoff write --produced <document>': a document named like the topic's file");
    expect(handoff(repo, ['sweep']).stdout).toMatch(/^then: .*stops the topic being proposed/m);

    repo.write('docs/division.md', '# Division\n\nRounds half to even.\n');
    expect(handoff(repo, ['write', '--produced', 'docs/division.md']).code).toBe(0);
    for (const n of [1]) {
      const next = commitWithHooks(repo, `feat: step ${n}`, { [`src/s${n}.ts`]: 'export {}\n' });
      expect(next.stderr).not.toContain('fidelity sweep');
    }
    const plan = handoff(repo, ['sweep', '--json']).json.topics[0];
    expect(plan).toMatchObject({ path: 'cadence/streaming/division.md', action: 'skip' });
    expect(plan.reason).toContain('consolidated into docs/division.md');

    // A document named otherwise covers the topic when it names the topic's file.
    repo.write('cadence/streaming/division.md', topic([...before, `${iso(repo.clock + 600)} a new question`]));
    expect(handoff(repo, ['sweep', '--json']).json.topics[0].action).toBe('consolidate');
    repo.write('docs/arith.md', '# Arithmetic\n\nFrom cadence/streaming/division.md.\n');
    repo.clock += 1200;
    expect(handoff(repo, ['write', '--produced', 'docs/arith.md']).code).toBe(0);
    expect(handoff(repo, ['sweep', '--json']).json.topics[0]).toMatchObject({ action: 'skip' });
  });
});
