/**
 * Issue 26's whole scenario, "Done when": two users with identities (ada, bob) and a third
 * without a key (carol), three clones and a bare remote; shared, team and private versions
 * interleaved on two branches by all three. Each user's show, log, diff, search, MCP and
 * session-start output holds exactly what they may read (every marker they may read is
 * somewhere in it, none they may not); no clone holds the text of a team or private version
 * in any file or object (nothing decrypted is kept); the remote's objects hold none of it.
 * (Rebase, squash and doctor --fix with encrypted versions: privacy-rewrites.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Fleet, type FleetRepo } from '../helpers/fleet.js';
import { handoff } from '../helpers/cli.js';
import { allObjectText, asUser, filesUnder, mcpText, newKey, sessionStartContext, withMcp } from '../helpers/privacy.js';

type User = 'ada' | 'bob' | 'carol';
type Visibility = 'shared' | 'team' | 'private';

const ok = (r: ReturnType<typeof handoff>, what = '') => {
  expect(r.code, `${what}: ${r.stdout} ${r.stderr}`).toBe(0);
  return r;
};
const sync = (repo: FleetRepo) => ok(handoff(repo, ['sync', '--json', 'origin']), 'sync');

interface Written {
  mark: string;
  by: User;
  branch: string;
  visibility: Visibility;
  id: string;
}

/** Who may read a version: everyone a shared one, ada and bob a team one, only its writer a private one. */
const mayRead = (user: User, w: Written) => w.visibility === 'shared' || (w.visibility === 'team' ? user !== 'carol' : user === w.by);

describe('three users, two branches, one remote', () => {
  it('each user reads exactly what they may through every reader; no text of an encrypted version rests anywhere', async () => {
    const fleet = new Fleet(3);
    const users: Record<User, FleetRepo> = {
      ada: asUser(fleet.clones[0], 'ada'),
      bob: asUser(fleet.clones[1], 'bob'),
      carol: asUser(fleet.clones[2], 'carol'),
    };
    const { ada, bob, carol } = users;
    const keys = [newKey(ada), newKey(bob)];
    ada.commit('readers and rules', {
      '.handoff-recipients': `${keys[0]} # ada\n${keys[1]} # bob\n`,
      'CLAUDE.md': '# Rules\n\nsession handoff: read on start, write on end\n',
    });
    ada.git('push', '-q', 'origin', 'main');
    for (const r of [bob, carol]) r.git('pull', '-q', 'origin', 'main');
    ok(handoff(bob, ['key', 'accept']), 'bob accepts the readers');

    const written: Written[] = [];
    /** `user` commits on `branch` (brought up to date first) and writes a whole document of that visibility, then syncs. */
    const step = (user: User, branch: string, mark: string, visibility: Visibility) => {
      const repo = users[user];
      sync(repo);
      repo.git('fetch', '-q', 'origin');
      const has = repo.gitRaw(['rev-parse', '-q', '--verify', `refs/remotes/origin/${branch}`]).status === 0;
      repo.git('checkout', '-q', '-B', branch, has ? `origin/${branch}` : 'origin/main');
      // (the code commit names no marker: the markers are the handoffs' own text)
      repo.commit(`work ${written.length + 1}`, { [`step${written.length + 1}.txt`]: `step ${written.length + 1}\n` });
      repo.git('push', '-q', 'origin', branch);
      const r = ok(handoff(repo, ['write', '--json', `--${visibility}`], { input: `summary: ${mark} handoffmarker\nquestions: [${mark}-QUESTION]\n` }), mark);
      expect(r.json.visibility).toBe(visibility);
      written.push({ mark, by: user, branch, visibility, id: r.json.version });
      sync(repo);
    };
    step('ada', 'main', 'SHAREDMAINONE', 'shared');
    step('ada', 'feature', 'TEAMFEATONE', 'team');
    step('bob', 'main', 'TEAMMAINTWO', 'team');
    step('carol', 'feature', 'SHAREDFEATTWO', 'shared');
    step('bob', 'feature', 'BOBPRIVFEAT', 'private');
    step('ada', 'main', 'ADAPRIVMAIN', 'private');
    step('carol', 'main', 'SHAREDMAINTHREE', 'shared');
    step('bob', 'main', 'BOBPRIVMAIN', 'private');
    for (const r of [ada, bob, carol]) sync(r);
    const secret = written.filter((w) => w.visibility !== 'shared');
    const markOf = new Map(written.map((w) => [w.id, w.mark]));

    // the remote's objects hold no text of a team or private version, and the shared ones in the clear
    const remote = allObjectText(fleet.remote);
    for (const w of written) (w.visibility === 'shared' ? expect(remote) : expect(remote).not).toContain(w.mark);

    for (const [user, repo] of Object.entries(users) as [User, FleetRepo][]) {
      const may = written.filter((w) => mayRead(user, w));
      const mayNot = written.filter((w) => !mayRead(user, w));
      const holdsNone = (what: string, text: string) => {
        for (const w of mayNot) expect(text, `${user}'s ${what} holds nothing of ${w.mark}`).not.toContain(w.mark);
      };
      const holdsAll = (what: string, text: string) => {
        for (const w of may) expect(text, `${user}'s ${what} holds ${w.mark}`).toContain(w.mark);
      };
      const newestReadable = (branch: string) => [...written].reverse().find((w) => w.branch === branch && mayRead(user, w))!;

      // log: every version listed, exactly the readable ones with their text
      const log = ok(handoff(repo, ['log', '--all', '--json']), 'log');
      expect(log.json.versions.map((v: any) => v.version).sort()).toEqual(written.map((w) => w.id).sort());
      for (const v of log.json.versions) {
        const w = written.find((x) => x.id === v.version)!;
        expect([v.visibility, v.readable, v.valid], `${user}: log row of ${w.mark}`).toEqual([w.visibility, mayRead(user, w), true]);
      }
      const logText = ok(handoff(repo, ['log', '--all']), 'log').stdout;
      for (const out of [JSON.stringify(log.json), logText]) {
        holdsAll('log', out);
        holdsNone('log', out);
      }

      // show, per branch: the newest version the user may read, one line for the newer ones not theirs
      for (const branch of ['main', 'feature']) {
        const show = ok(handoff(repo, ['show', '--branch', branch]), `show ${branch}`);
        const json = ok(handoff(repo, ['show', '--json', '--branch', branch]), `show --json ${branch}`).json;
        expect(json.handoff.summary, `${user}: show on ${branch}`).toBe(`${newestReadable(branch).mark} handoffmarker`);
        holdsNone(`show of ${branch}`, show.stdout + show.stderr + JSON.stringify(json));
        const newer = written.filter((w) => w.branch === branch && written.indexOf(w) > written.indexOf(newestReadable(branch)));
        for (const w of newer)
          expect(show.stdout + show.stderr).toMatch(new RegExp(`${w.id.slice(0, 12)}: encrypted for \\d readers?, not you; written by ${w.by} on ${branch}`));
      }

      // diff: the two newest versions of each branch, whatever the user may read of them, and every pair of versions
      for (const branch of ['main', 'feature']) {
        const d = handoff(repo, ['diff', '--branch', branch]);
        expect([0, 1], `${user}: diff on ${branch}: ${d.stderr}`).toContain(d.code);
        holdsNone(`diff of ${branch}`, d.stdout + d.stderr);
      }
      for (const a of written)
        for (const b of written.filter((x) => written.indexOf(x) > written.indexOf(a) && x.branch === a.branch)) {
          const d = handoff(repo, ['diff', '--json', a.id, b.id]);
          holdsNone(`diff ${a.mark} ${b.mark}`, d.stdout + d.stderr);
          if (mayRead(user, a) && mayRead(user, b)) {
            expect(d.code, d.stderr).toBe(0);
            expect(d.stdout).toContain(`${a.mark}-QUESTION`);
            expect(d.stdout).toContain(`${b.mark}-QUESTION`);
          }
        }

      // search: the readable versions are found, the others counted as not searched
      const search = handoff(repo, ['search', '--json', '-n', '100', 'handoffmarker']);
      expect(search.code, search.stderr).toBe(0);
      expect([...new Set(search.json.results.map((h: any) => markOf.get(h.version)))].sort()).toEqual(may.map((w) => w.mark).sort());
      expect(search.json.unreadable ?? 0).toBe(mayNot.length);
      holdsNone('search', search.stdout + ok(handoff(repo, ['search', 'handoffmarker'])).stdout);

      // MCP, through the SDK's own client
      await withMcp(repo, async (client) => {
        const call = async (name: string, args: Record<string, unknown>) => {
          const r: any = await client.callTool({ name, arguments: args });
          expect(r.isError, `${user}: ${name} ${JSON.stringify(args)}: ${mcpText(r)}`).toBeFalsy();
          return mcpText(r);
        };
        const logs = await call('handoff_log', { all: true, limit: 100 });
        holdsAll('MCP handoff_log', logs);
        holdsNone('MCP handoff_log', logs);
        for (const branch of ['main', 'feature']) {
          const shown = await call('handoff_show', { branch });
          expect(shown).toContain(newestReadable(branch).mark);
          holdsNone(`MCP handoff_show of ${branch}`, shown);
          holdsNone(`MCP handoff_diff of ${branch}`, mcpText(await client.callTool({ name: 'handoff_diff', arguments: { branch } })));
        }
        const found = await call('handoff_search', { query: 'handoffmarker', limit: 100 });
        holdsAll('MCP handoff_search', found);
        holdsNone('MCP handoff_search', found);
      });

      // the session-start hook, on each branch: the agent is given what the user may read
      for (const branch of ['main', 'feature']) {
        repo.git('checkout', '-q', '-B', branch, `origin/${branch}`);
        const ctx = sessionStartContext(repo, `sess-${user}-${branch}`);
        expect(ctx).toContain(newestReadable(branch).mark);
        holdsNone(`session-start context on ${branch}`, ctx);
      }

      // nothing decrypted rests in the clone: no file (the search index and caches included) and no object holds an encrypted version's text
      for (const f of filesUnder(repo.dir).filter((f) => !f.includes(join('.git', 'objects'))))
        for (const w of secret) expect(readFileSync(f, 'latin1'), `${user}: ${f}`).not.toContain(w.mark);
      const objects = allObjectText(repo);
      for (const w of secret) expect(objects, `${user}'s objects`).not.toContain(w.mark);
    }
  });
});
