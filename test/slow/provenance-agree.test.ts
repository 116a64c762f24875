/**
 * Provenance has one reader (VersionReader.provenance, docs/architecture.md): every consumer
 * says the same of each version. A history mixing versions written here, versions a
 * teammate wrote (one with plain `git notes`) fetched from the remote, and a version whose
 * remote-tracking history is gone (origin unknown) is read by `log --json` (the bulk
 * reader), `show --version --json` (the walk), MCP `handoff_log` (the walk, a window at a
 * time) and `view --html` (the view's rows): author, origin, signature and "own" agree.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliPath, handoff } from '../helpers/cli.js';
import { Fleet, sync, writeVersion } from '../helpers/fleet.js';
import { tempDir } from '../helpers/repo.js';

const pick = (v: any) => ({ author: v.author, origin: v.origin, signature: v.signature, signer: v.signer });

describe('provenance: one answer in every consumer', () => {
  it('log --json, show --json, MCP handoff_log and the view file agree on every version', async () => {
    const fleet = new Fleet(2);
    const [alice, bob] = fleet.clones;
    const carol = { GIT_AUTHOR_NAME: 'Carol', GIT_AUTHOR_EMAIL: 'carol@example.com', GIT_COMMITTER_NAME: 'Carol', GIT_COMMITTER_EMAIL: 'carol@example.com' };
    const a1 = writeVersion(alice, 'alice: first');
    alice.commit('feat: more', { 'b.txt': 'b\n' });
    // a teammate's version written with plain git notes, no git-handoff
    alice.gitRaw(['notes', '--ref=handoff', 'add', '-m', 'schema: 1\nsummary: carol by hand\nstatus: in_progress\nbranch: main\n', 'HEAD'], {
      env: { ...alice.tick(), ...carol },
    });
    sync(alice);
    sync(bob);
    bob.git('pull', '-q', 'origin', 'main');
    bob.commit('feat: bob', { 'c.txt': 'c\n' });
    const b1 = writeVersion(bob, 'bob: mine');

    const logged = handoff(bob, ['log', '--all', '--json']);
    expect(logged.code, logged.stderr).toBe(0);
    const rows: any[] = logged.json.versions;
    expect(rows).toHaveLength(3);
    const byId = Object.fromEntries(rows.map((r) => [r.version, r]));
    expect(pick(byId[b1])).toMatchObject({ origin: 'local', signature: 'unsigned' });
    expect(pick(byId[a1])).toMatchObject({ origin: 'origin', signature: 'unsigned' });
    const c1 = rows.find((r) => r.summary === 'carol by hand').version;
    expect(byId[c1].author).toEqual({ name: 'Carol', email: 'carol@example.com' });

    const agreeAll = async (what: string, every: boolean) => {
      const listed = handoff(bob, ['log', '--all', '--json']).json.versions;
      expect(listed.map((r: any) => r.version)).toEqual(rows.map((r) => r.version));
      for (const row of listed) {
        const shown = handoff(bob, ['show', '--version', row.version, '--json']);
        expect(shown.code, shown.stderr).toBe(0);
        expect(pick(shown.json), `${what}: show --version ${row.version}`).toEqual(pick(row));
      }
      if (!every) return listed;
      // MCP reads without the bulk reader, a window at a time
      const env = { ...(bob.tick() as Record<string, string>), PATH: cliPath() };
      const client = new Client({ name: 'agree', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command: 'git', args: ['handoff', 'mcp'], cwd: bob.dir, env, stderr: 'pipe' }));
      try {
        const r = (await client.callTool({ name: 'handoff_log', arguments: { all: true } })) as any;
        expect(r.isError, JSON.stringify(r)).toBeFalsy();
        const mcp = r.structuredContent.versions;
        expect(mcp.map((m: any) => m.version)).toEqual(listed.map((x: any) => x.version));
        mcp.forEach((m: any, n: number) => {
          expect(pick(m), `${what}: MCP ${m.version}`).toEqual(pick(listed[n]));
          expect(m.own, `${what}: MCP own ${m.version}`).toBe(listed[n].origin === 'local' || listed[n].signature === 'verified');
        });
        // handoff_show of a teammate's version: the same provenance, and the agent told whose words these are
        const shown = (await client.callTool({ name: 'handoff_show', arguments: { version: a1 } })) as any;
        expect(pick(shown.structuredContent), `${what}: MCP handoff_show`).toEqual(pick(listed.find((x: any) => x.version === a1)));
        expect(shown.content[0].text).toContain('this handoff was not written by the current user');
        const mine = (await client.callTool({ name: 'handoff_show', arguments: {} })) as any;
        expect(mine.structuredContent.version).toBe(b1);
        expect(mine.content[0].text).not.toContain('not written by the current user');
      } finally {
        await client.close();
      }
      const file = join(tempDir('handoff-agree-'), 'view.html');
      expect(handoff(bob, ['view', '--html', file]).code).toBe(0);
      const data = /<script type="application\/json" id="handoff-data">([^]*?)<\/script>/.exec(readFileSync(file, 'utf8'))![1];
      const doc = JSON.parse(gunzipSync(Buffer.from(JSON.parse(data).data, 'base64')).toString('utf8'));
      const viewed = Object.fromEntries(doc.versions.map((v: any) => [v.version, v]));
      for (const row of listed) expect(pick(viewed[row.version]), `${what}: view ${row.version}`).toEqual(pick(row));
      return listed;
    };
    await agreeAll('with the remote-tracking history', true);

    // The remote-tracking history gone: what came from it is of unknown origin, everywhere.
    bob.git('update-ref', '-d', 'refs/notes/remotes/origin/handoff');
    const after = await agreeAll('without it', false);
    const again = Object.fromEntries(after.map((r: any) => [r.version, r]));
    expect(again[a1].origin).toBeNull();
    expect(again[c1].origin).toBeNull();
    expect(again[b1].origin).toBe('local');
  });
});
