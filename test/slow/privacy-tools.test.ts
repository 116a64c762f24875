/**
 * Private handoffs through every other reader (issue 26, docs/privacy.md): search, export,
 * MCP (the SDK's own client) and the session-start hook decrypt what the user's key reads
 * and give one line for what it does not; search keeps no text of an encrypted version on
 * disk; a version made from an encrypted one stays encrypted unless told otherwise.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Fleet, type FleetRepo } from '../helpers/fleet.js';
import { cliPath, handoff } from '../helpers/cli.js';
import { tempDir } from '../helpers/repo.js';

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
const sync = (repo: FleetRepo) => ok(handoff(repo, ['sync', '--json', 'origin']));
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : []));
/** Every object of a repository, as git stores it decompressed. */
function allObjectText(repo: FleetRepo): string {
  const ids = repo.git('cat-file', '--batch-all-objects', '--batch-check=%(objectname)').split('\n').filter(Boolean);
  return execFileSync('git', ['cat-file', '--batch'], { cwd: repo.dir, env: repo.env, input: ids.join('\n') + '\n' }).toString('latin1');
}

async function mcp<T>(repo: FleetRepo, use: (c: Client) => Promise<T>): Promise<T> {
  const transport = new StdioClientTransport({
    command: 'git',
    args: ['handoff', 'mcp'],
    cwd: repo.dir,
    env: { ...(repo.tick() as Record<string, string>), PATH: cliPath() },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'handoff-privacy', version: '1.0.0' });
  await client.connect(transport);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}
const textOf = (r: any) => (r.content as { text: string }[]).map((c) => c.text).join('\n');

const sessionStart = (repo: FleetRepo, id: string) => {
  const input = JSON.stringify({ session_id: id, transcript_path: '/tmp/t.jsonl', cwd: repo.dir, hook_event_name: 'SessionStart', source: 'startup' });
  const r = ok(handoff(repo, ['hook', 'session-start', '--agent', 'claude'], { input }));
  return JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
};

describe('the other readers of a private handoff', () => {
  it('search, export, MCP and the session-start hook: the owner reads it, another user gets one line; nothing of it in the clear anywhere', async () => {
    const fleet = new Fleet(2);
    const ada = as(fleet.clones[0], 'ada');
    const carol = as(fleet.clones[1], 'carol');
    ok(handoff(ada, ['key', 'new']));
    // the project's rules ask for handoffs (the trigger line the agent hooks look for)
    ada.commit('rules', { 'CLAUDE.md': '# Rules\n\nsession handoff: read on start, write on end\n' });
    ada.git('push', '-q', 'origin', 'main');
    carol.git('pull', '-q', 'origin', 'main');
    ok(handoff(ada, ['write', '--summary', 'SHARED-MARK base']));
    const priv = ok(handoff(ada, ['write', '--json', '--private'], { input: 'summary: ADA-PRIVATE-MARK doubts\nguards: [GUARD-MARK]\n' })).json.version;
    // a patch of it stays private without --private, and says so
    const patched = ok(handoff(ada, ['write', '--json', '--add-guard', 'PATCH-MARK']));
    expect(patched.json).toMatchObject({ visibility: 'private' });
    const patchedId = patched.json.version as string;
    sync(ada);
    sync(carol);

    // search: ada finds the private text; carol does not, and is told what she could not search
    const a = ok(handoff(ada, ['search', '--json', 'ADA-PRIVATE-MARK']));
    expect(a.json.results.map((h: any) => h.version)).toContain(priv);
    expect(a.json.unreadable).toBeUndefined();
    const c = handoff(carol, ['search', '--json', 'ADA-PRIVATE-MARK']);
    expect(c.code).toBe(1);
    expect(c.json).toMatchObject({ results: [], unreadable: 2 });
    const cText = handoff(carol, ['search', 'SHARED-MARK']);
    expect(cText.code).toBe(0);
    expect(cText.stderr).toMatch(/2 versions are encrypted for others and your key cannot read them: not searched/);
    // the index on disk (0600) names the encrypted versions' notes and holds none of their text
    const index = join(ada.dir, '.git', 'handoff', 'search-index.jsonl');
    expect(statSync(index).mode & 0o777).toBe(0o600);
    expect(readFileSync(index, 'utf8')).toContain('SHARED-MARK');
    expect(readFileSync(index, 'utf8')).not.toMatch(/PRIVATE-MARK|GUARD-MARK|PATCH-MARK/);

    // export: the owner gets it (a file outside git says it is in the clear); carol gets the shared one and the line
    const ex = ok(handoff(ada, ['export', '--format', 'yaml']));
    expect(ex.stdout).toContain('PATCH-MARK');
    const out = join(tempDir('handoff-export-'), 'next.md');
    const exFile = ok(handoff(ada, ['export', '-o', out]));
    expect(exFile.stderr).toMatch(/that version is private .* holds its text in the clear/);
    const cx = ok(handoff(carol, ['export', '--format', 'json']));
    expect(cx.stdout).toContain('SHARED-MARK');
    expect(cx.stdout).not.toMatch(/PRIVATE-MARK|GUARD-MARK|PATCH-MARK/);
    expect(cx.stderr).toMatch(new RegExp(`version ${patchedId.slice(0, 12)}: encrypted for 1 reader, not you; written by ada on main`));

    // MCP through the SDK client
    await mcp(ada, async (client) => {
      const show: any = await client.callTool({ name: 'handoff_show', arguments: {} });
      expect(textOf(show)).toContain('PATCH-MARK');
      expect(show.structuredContent).toMatchObject({ visibility: 'private', readable: true });
      const log: any = await client.callTool({ name: 'handoff_log', arguments: {} });
      expect(log.structuredContent.versions[0]).toMatchObject({ version: patchedId, visibility: 'private', readable: true });
      const search: any = await client.callTool({ name: 'handoff_search', arguments: { query: 'GUARD-MARK' } });
      expect(search.structuredContent.results.length).toBeGreaterThan(0);
      const w: any = await client.callTool({ name: 'handoff_write', arguments: { handoff: { summary: 'MCP-PRIVATE-MARK' }, visibility: 'private' } });
      expect(w.isError, textOf(w)).toBeFalsy();
      expect(w.structuredContent).toMatchObject({ visibility: 'private' });
      expect(textOf(w)).toMatch(/private: encrypted for 1 reader/);
      const bad: any = await client.callTool({ name: 'handoff_write', arguments: { handoff: { summary: 'x' }, visibility: 'secret' } });
      expect(bad.isError).toBe(true);
    });
    sync(ada);
    sync(carol);
    await mcp(carol, async (client) => {
      const show: any = await client.callTool({ name: 'handoff_show', arguments: {} });
      const all = textOf(show) + JSON.stringify(show.structuredContent);
      expect(all).toContain('SHARED-MARK');
      expect(all).not.toMatch(/PRIVATE-MARK|GUARD-MARK|PATCH-MARK/);
      expect(textOf(show)).toMatch(/encrypted for 1 reader, not you; written by ada/);
      const log: any = await client.callTool({ name: 'handoff_log', arguments: {} });
      expect(JSON.stringify(log)).not.toMatch(/PRIVATE-MARK|GUARD-MARK|PATCH-MARK/);
      expect(log.structuredContent.versions[0]).toMatchObject({ visibility: 'private', readable: false });
      expect(textOf(log).split('\n')[0]).toMatch(/\(encrypted for 1 reader, not you/);
      // a patch by carol onto the head she cannot read is refused as a tool error, nothing written
      const w: any = await client.callTool({ name: 'handoff_write', arguments: { patch: { summary: 'x' } } });
      expect(w.isError).toBe(true);
      expect(textOf(w)).toMatch(/cannot read it/);
    });

    // the session-start hook: ada's agent gets the text and is told to keep it closed; carol's gets the line
    const actx = sessionStart(ada, 'sess-ada');
    expect(actx).toContain('MCP-PRIVATE-MARK');
    expect(actx).toMatch(/encrypted for only your own keys \(private\)/);
    const cctx = sessionStart(carol, 'sess-carol');
    expect(cctx).toContain('SHARED-MARK');
    expect(cctx).not.toMatch(/PRIVATE-MARK|GUARD-MARK|PATCH-MARK/);
    expect(cctx).toMatch(/encrypted for 1 reader, not you/);

    // nothing of the private text on the remote, nor anywhere in carol's clone; in ada's only inside the objects
    expect(allObjectText(fleet.remote)).not.toMatch(/PRIVATE-MARK|GUARD-MARK|PATCH-MARK/);
    for (const f of files(carol.dir)) expect(readFileSync(f, 'latin1'), f).not.toMatch(/PRIVATE-MARK|GUARD-MARK|PATCH-MARK/);
    for (const f of files(ada.dir).filter((f) => !f.includes(`${join('.git', 'objects')}`)))
      expect(readFileSync(f, 'latin1'), f).not.toMatch(/PRIVATE-MARK|GUARD-MARK|PATCH-MARK/);
  });
});
