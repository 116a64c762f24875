/**
 * Issue 22: every reader takes "latest" from the one reader of versions (src/history/). After a
 * plain `git rebase` of three commits with a handoff each, git's own note copy (one native
 * notes commit moving three notes) is no version of its own: search's first hit (newest
 * first), on the CLI and through MCP, names the version `show --json` names, on the commit
 * its note sits on now, as MCP's handoff_show does.
 */
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliPath, handoff } from '../helpers/cli.js';
import { installedRepo, rebasedBranch } from '../helpers/lineage-scenarios.js';
import type { TestRepo } from '../helpers/repo.js';

async function mcp(repo: TestRepo): Promise<{ show: any; search: any }> {
  const transport = new StdioClientTransport({
    command: 'git',
    args: ['handoff', 'mcp'],
    cwd: repo.dir,
    env: { ...(repo.tick() as Record<string, string>), PATH: cliPath() },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'readers-rebase', version: '1.0.0' });
  await client.connect(transport);
  try {
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const r: any = await client.callTool({ name, arguments: args });
      expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
      return r.structuredContent;
    };
    return { show: await call('handoff_show'), search: await call('handoff_search', { query: 'step' }) };
  } finally {
    await client.close();
  }
}

describe('after a plain rebase, every reader names the latest of the one reader', () => {
  it('search (CLI and MCP) and MCP handoff_show name the version show --json names', async () => {
    const repo = installedRepo();
    const { last } = rebasedBranch(repo, 3, 11);
    const show = handoff(repo, ['show', '--json']);
    expect(show.code, show.stderr).toBe(0);
    expect(show.json.version).toBe(last);
    expect(show.json.target).toBe(repo.head());

    // Every version holds the word: the first hit, newest first, is the latest.
    const search = handoff(repo, ['search', 'step', '--json']);
    expect(search.code, search.stderr).toBe(0);
    const ids = search.json.results.map((h: { version: string }) => h.version);
    expect(ids[0], 'search: first hit').toBe(last);
    expect(search.json.results[0].target, 'search: the commit the note sits on now').toBe(repo.head());
    // git's copy is no version: three versions were written, three are found.
    expect(new Set(ids).size, 'search: one hit per version written').toBe(3);
    const rows: { version: string; target: string }[] = handoff(repo, ['log', '--json']).json.versions;
    const log = rows.map((v) => v.version);
    expect([...ids].sort()).toEqual([...log].sort());
    // Every hit, the older ones too, names the commit its note sits on now, as log does: the
    // rebased commits (git's copy moved every version), none of the commits the rebase replaced.
    const logTarget = new Map(rows.map((v) => [v.version, v.target]));
    for (const h of search.json.results) {
      expect(h.target, `search: hit ${h.version.slice(0, 12)} names where log says it sits`).toBe(logTarget.get(h.version));
      expect(repo.gitRaw(['merge-base', '--is-ancestor', h.target, 'HEAD']).status, `search: hit ${h.version.slice(0, 12)} sits on the rebased branch`).toBe(0);
    }

    const m = await mcp(repo);
    expect(m.show.version, 'MCP handoff_show').toBe(last);
    expect(m.search.results[0].version, 'MCP handoff_search: first hit').toBe(last);
    for (const h of m.search.results) expect(h.target, 'MCP handoff_search: where the note sits now').toBe(logTarget.get(h.version));
  });
});
