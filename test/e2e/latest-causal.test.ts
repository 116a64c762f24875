/**
 * "Latest" follows causality before dates (docs/format.md): with
 * one machine's clock an hour fast, its older session must not win over a session that
 * continued its work; between unrelated sessions the date decides and `show` says they
 * diverged.
 */
import { describe, expect, it } from 'vitest';
import { handoff } from '../helpers/cli.js';
import { Fleet, sync, type FleetRepo } from '../helpers/fleet.js';

/** An hour ahead of the fleet's shared clock. */
const fast = (repo: FleetRepo) => {
  const t = repo.fleet.clock + 3600;
  return { GIT_COMMITTER_DATE: `@${t} +0000`, GIT_AUTHOR_DATE: `@${t} +0000` };
};

function write(repo: FleetRepo, summary: string, env: NodeJS.ProcessEnv = {}): string {
  const r = handoff(repo, ['write', '--json', '--summary', summary], { env });
  expect(r.code, r.stderr).toBe(0);
  return r.json.version;
}

describe('the latest version with a fast clock on one machine', () => {
  it("a session on a commit that descends from the other's is shown first, whatever the dates say", () => {
    const fleet = new Fleet(2);
    const [a, b] = fleet.clones;
    a.commit('feat: a starts', { 'a.txt': 'a\n' });
    a.git('push', '-q', 'origin', 'main');
    const older = write(a, 'a stopped here (clock an hour fast)', fast(a));
    b.git('pull', '-q', 'origin', 'main');
    b.commit('feat: b continues a', { 'b.txt': 'b\n' });
    const newer = write(b, 'b continued from a');
    b.git('push', '-q', 'origin', 'main');
    sync(a);
    sync(b);
    sync(a);
    a.git('pull', '-q', 'origin', 'main');
    for (const repo of [a, b]) {
      const r = handoff(repo, ['show', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.json.version, `${repo.name} shows the older session`).toBe(newer);
      // b never saw a's handoff (it pulled the code, not the notes): two heads, and every
      // reader says so (docs/format.md "Lineage"); the one whose commit descends comes first.
      const text = handoff(repo, ['show']);
      expect(text.stdout + text.stderr).toContain(`two sessions diverged: version ${older.slice(0, 12)}`);
    }
    // The other session stays in the history.
    expect(handoff(b, ['log', '--json']).json.versions.map((v: { version: string }) => v.version)).toContain(older);
  });

  it('between sessions whose work is unrelated the date decides, and show says they diverged', () => {
    const fleet = new Fleet(2);
    const [a, b] = fleet.clones;
    a.commit('feat: a alone', { 'a.txt': 'a\n' });
    const later = write(a, 'a on its own line', fast(a));
    b.commit('feat: b alone', { 'b.txt': 'b\n' });
    const earlier = write(b, 'b on its own line');
    sync(a);
    sync(b);
    const r = handoff(b, ['show', '--json']);
    expect(r.json.version).toBe(later);
    const text = handoff(b, ['show']);
    expect(text.code).toBe(0);
    expect(text.stdout + text.stderr).toContain(`two sessions diverged: version ${earlier.slice(0, 12)}`);
  });
});
