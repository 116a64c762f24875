/**
 * A property of private and team handoffs (issue 26, docs/privacy.md): for random writes of
 * random visibility by random users (two with a key, one without) and random changes of
 * the team's readers, every user's log, show and search hold exactly the markers their key
 * may read; no marker of an encrypted version is on the remote or in any file of any clone
 * outside the git objects it was written to.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, sep } from 'node:path';
import { Fleet, type FleetRepo } from '../helpers/fleet.js';
import { handoff } from '../helpers/cli.js';
import { tempDir } from '../helpers/repo.js';

type User = 'ada' | 'bob' | 'carol';
type Step = { kind: 'write'; who: User; vis: 'shared' | 'team' | 'private' } | { kind: 'readers'; withBob: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('write' as const),
      who: fc.constantFrom<User>('ada', 'bob', 'carol'),
      vis: fc.constantFrom('shared', 'team', 'private'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('readers' as const), withBob: fc.boolean() }) },
);

function as(repo: FleetRepo, name: string): FleetRepo {
  Object.assign(repo.env, {
    XDG_CONFIG_HOME: tempDir(`handoff-xdg-${name}-`),
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: `${name}@example.com`,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: `${name}@example.com`,
  });
  return repo;
}
const ok = (r: ReturnType<typeof handoff>) => {
  expect(r.code, r.stderr).toBe(0);
  return r;
};
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : []));
function allObjectText(repo: FleetRepo): string {
  const ids = repo.git('cat-file', '--batch-all-objects', '--batch-check=%(objectname)').split('\n').filter(Boolean);
  return execFileSync('git', ['cat-file', '--batch'], { cwd: repo.dir, env: repo.env, input: ids.join('\n') + '\n', maxBuffer: 1 << 28 }).toString('latin1');
}

describe('who reads what, for random histories', () => {
  it('every user sees exactly what their key allows; nothing encrypted is readable anywhere else', () => {
    let run = 0;
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 3, maxLength: 7 }).filter((xs) => xs.some((x) => x.kind === 'write')),
        (steps) => {
          run++;
          const fleet = new Fleet(3);
          const users: Record<User, FleetRepo> = { ada: as(fleet.clones[0], 'ada'), bob: as(fleet.clones[1], 'bob'), carol: as(fleet.clones[2], 'carol') };
          const key = { ada: ok(handoff(users.ada, ['key', 'new'])).stdout.trim(), bob: ok(handoff(users.bob, ['key', 'new'])).stdout.trim() };
          let team: User[] = ['ada'];
          const setReaders = (withBob: boolean) => {
            team = withBob ? ['ada', 'bob'] : ['ada'];
            users.ada.git('pull', '-q', 'origin', 'main');
            users.ada.commit(`readers ${team.join('+')}`, { '.handoff-recipients': team.map((u) => `${key[u as 'ada' | 'bob']} # ${u}\n`).join('') });
            users.ada.git('push', '-q', 'origin', 'main');
          };
          setReaders(false);
          /** each marker written, and who may read it */
          const written = new Map<string, Set<User>>();
          steps.forEach((s, i) => {
            if (s.kind === 'readers') return setReaders(s.withBob);
            const repo = users[s.who];
            repo.git('pull', '-q', 'origin', 'main');
            ok(handoff(repo, ['sync', '--json', 'origin']));
            const marker = `MARK${run}X${i}${s.vis.toUpperCase()}`;
            if (s.vis === 'team' && s.who !== 'ada') ok(handoff(repo, ['key', 'accept']));
            const r = handoff(repo, ['write', '--json', `--${s.vis}`], { input: `summary: ${marker}\n` });
            if (s.vis === 'private' && s.who === 'carol') {
              // no identity: refused, nothing written
              expect(r.code).toBe(1);
              expect(r.stderr).toMatch(/key new/);
              return;
            }
            expect(r.code, r.stderr).toBe(0);
            ok(handoff(repo, ['sync', '--json', 'origin']));
            written.set(marker, new Set<User>(s.vis === 'shared' ? ['ada', 'bob', 'carol'] : s.vis === 'private' ? [s.who] : team));
          });
          for (const u of Object.values(users)) {
            u.git('pull', '-q', 'origin', 'main');
            ok(handoff(u, ['sync', '--json', 'origin']));
          }
          const markers = [...written.keys()];
          const secret = markers.filter((m) => !m.endsWith('SHARED'));
          for (const [name, repo] of Object.entries(users) as [User, FleetRepo][]) {
            const may = markers.filter((m) => written.get(m)!.has(name));
            const log = ok(handoff(repo, ['log', '--all', '--json'])).json.versions as { summary: string | null; readable: boolean }[];
            expect(
              log
                .map((v) => v.summary)
                .filter((x): x is string => x !== null)
                .sort(),
              `${name}'s log`,
            ).toEqual([...may].sort());
            expect(log.filter((v) => !v.readable)).toHaveLength(markers.length - may.length);
            const forbidden = markers.filter((m) => !written.get(m)!.has(name));
            const text = [ok(handoff(repo, ['log', '--all'])), handoff(repo, ['show']), handoff(repo, ['search', 'MARK'])]
              .map((r) => r.stdout + r.stderr)
              .join('\n');
            for (const m of forbidden) expect(text, `${name} must not see ${m}`).not.toContain(m);
            const found = handoff(repo, ['search', '--json', 'MARK']).json.results.map((h: { summary: string }) => h.summary);
            expect([...new Set(found)].sort(), `${name}'s search`).toEqual([...may].sort());
            // no text of an encrypted version in any file of the clone but the objects it was written to
            for (const f of files(repo.dir).filter((p) => !p.includes(`${sep}.git${sep}objects${sep}`)))
              for (const m of secret) expect(readFileSync(f, 'latin1').includes(m), `${m} in ${f}`).toBe(false);
          }
          const remote = allObjectText(fleet.remote);
          for (const m of secret) expect(remote.includes(m), `${m} on the remote`).toBe(false);
          for (const m of markers.filter((x) => x.endsWith('SHARED'))) expect(remote).toContain(m);
        },
      ),
      { numRuns: 3, endOnFailure: true },
    );
  });
});
