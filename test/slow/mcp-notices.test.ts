/**
 * What `handoff_show` and `handoff_diff` tell an agent through MCP is what `git handoff show`
 * and `git handoff diff` tell a person: each notice's situation is set up in a real
 * repository, the SDK's own client asks the installed server, and the answer is compared
 * with the installed CLI's, text for text.
 */
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { TestRepo } from '../helpers/repo.js';
import { cliPath, handoff } from '../helpers/cli.js';
import { STALE_LINE, divergedSessions, freshClone, movedByAmend, onAnotherBranch, remoteAhead, skippedStaleDue } from '../helpers/notice-situations.js';

interface Shown {
  /** the tool's text, its `notices`, the bookmark resource's text */
  text: string;
  notices: string[];
  resource: string;
  /** `git handoff show`: what a person sees, stdout then stderr */
  cli: { stdout: string; stderr: string };
}

async function withClient<T>(repo: TestRepo, f: (c: Client) => Promise<T>): Promise<T> {
  const env = { ...(repo.tick() as Record<string, string>), PATH: cliPath() };
  const transport = new StdioClientTransport({ command: 'git', args: ['handoff', 'mcp'], cwd: repo.dir, env, stderr: 'pipe' });
  const client = new Client({ name: 'handoff-notices', version: '1.0.0' });
  await client.connect(transport);
  try {
    return await f(client);
  } finally {
    await client.close();
  }
}

/** Asks the MCP server and the CLI for the same bookmark; the two must agree. */
async function show(repo: TestRepo): Promise<Shown> {
  const { r, res } = await withClient(repo, async (c) => ({
    r: (await c.callTool({ name: 'handoff_show', arguments: {} })) as any,
    res: await c.readResource({ uri: 'handoff://latest/bookmark' }),
  }));
  expect(r.isError, JSON.stringify(r)).toBeFalsy();
  const cli = handoff(repo, ['show']);
  expect(cli.code, cli.stderr).toBe(0);
  const shown = { text: r.content[0].text, notices: r.structuredContent.notices, resource: (res.contents[0] as any).text, cli };
  expect(shown.resource).toBe(shown.text);
  if (r.structuredContent.handoff) {
    // the tool's text is the bookmark the CLI prints, notices first
    expect(cli.stderr).toBe('');
    expect(shown.text).toBe(cli.stdout);
    expect(shown.text.split('\n').slice(0, shown.notices.length)).toEqual(shown.notices);
  } else {
    // nothing to show: the CLI prints the notices alone, on stderr
    expect(cli.stdout).toBe('');
    expect(shown.notices).toEqual(lines(cli.stderr));
    expect(shown.text.split('\n').slice(0, -1)).toEqual(shown.notices);
  }
  return shown;
}

const lines = (s: string) => s.split('\n').filter((l) => l !== '');

describe('handoff_show gives the notices git handoff show prints', () => {
  it('skipped invalid versions, stale, and a handoff due', async () => {
    const { repo, due: c2 } = skippedStaleDue();
    const s = await show(repo);
    expect(s.notices[0]).toMatch(/^warning: skipped version [0-9a-f]{12}: not a valid handoff \(summary: must be a string, not a list\)$/);
    expect(s.notices).toContainEqual(expect.stringMatching(STALE_LINE));
    expect(s.notices.at(-1)).toBe(`a handoff is due: commit ${c2.slice(0, 7)} was made since this one; run 'git handoff write'`);
    expect(s.text).toContain('the parser is half done');
  });

  it('no version on this branch: the newest one, and where it is from', async () => {
    const s = await show(onAnotherBranch());
    expect(s.notices[0]).toBe('no handoff on branch feature yet; showing the newest one (from main)');
  });

  it('two sessions diverged', async () => {
    const { repo, earlier } = divergedSessions();
    const s = await show(repo);
    expect(s.notices).toContainEqual(expect.stringMatching(new RegExp(`^two sessions diverged: version ${earlier.slice(0, 12)} \\(`)));
    expect(s.text).toContain('a on its own line');
  });

  it('a version moved by a rewrite; diff gives its moved field and lines as the CLI does', async () => {
    const { repo, before, after } = movedByAmend();
    const s = await show(repo);
    expect(s.notices).toContainEqual(
      expect.stringMatching(new RegExp(`^moved by a rewrite: this handoff was written at commit ${before.slice(0, 7)} and now sits on ${after.slice(0, 7)}`)),
    );

    const d = (await withClient(repo, (c) => c.callTool({ name: 'handoff_diff', arguments: {} }))) as any;
    expect(d.isError, JSON.stringify(d)).toBeFalsy();
    const json = handoff(repo, ['diff', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.json.moved).toEqual([{ version: json.json.new, from: before, to: after }]);
    expect(d.structuredContent).toEqual(json.json);
    const text = handoff(repo, ['diff']);
    expect(text.code, text.stderr).toBe(0);
    expect(d.content[0].text).toBe(text.stdout);
    expect(d.content[0].text).toContain(`was moved from commit ${before.slice(0, 7)} to ${after.slice(0, 7)} by a rewrite`);
  });

  it('the fetched remote history holds versions this clone lacks', async () => {
    const s = await show(remoteAhead());
    expect(s.notices).toContain("origin has 2 handoff versions this clone lacks; run 'git handoff sync origin'");
  });

  it('a fresh clone, with nothing to show yet, says how handoffs travel', async () => {
    const s = await show(freshClone());
    expect(s.notices).toEqual([
      "no handoff in this clone yet: handoffs travel separately from the code (git clone and fetch do not bring refs/notes/handoff); get them with 'git handoff sync origin'",
    ]);
    expect(s.text.split('\n').at(-1)).toBe('no handoff to show');
  });
});
