/**
 * Issue 22, "Readers disagree after a sync": two clones write concurrently from the same
 * version (one on a newer commit, the other later by the clock), sync through a bare remote
 * and pull the code, so both hold the same commits and the same notes ref. Then every
 * reader in both clones names the same latest version and says the two sessions diverged,
 * the other session's ask_user item stays on the bookmark, and `write --continue A,B`
 * joins them: afterwards every reader agrees there is no divergence.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliPath, handoff } from '../helpers/cli.js';
import { Fleet, sync, writeVersion, type FleetRepo } from '../helpers/fleet.js';
import { commitWithHooks, handoffLines } from '../helpers/hooks.js';

/** `handoff_show`, `handoff_log`, `handoff_diff` and `handoff://latest` through the SDK's own client, over stdio, as an agent would call them. */
async function mcpReaders(repo: FleetRepo): Promise<{ show: any; text: string; log: any; diff: any; resource: string }> {
  const transport = new StdioClientTransport({
    command: 'git',
    args: ['handoff', 'mcp'],
    cwd: repo.dir,
    env: { ...(repo.tick() as Record<string, string>), PATH: cliPath() },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'lineage-clones', version: '1.0.0' });
  await client.connect(transport);
  try {
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const r: any = await client.callTool({ name, arguments: args });
      expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
      return r;
    };
    const show = await call('handoff_show');
    const log = await call('handoff_log', { limit: 5 });
    const diff = await call('handoff_diff');
    const res = await client.readResource({ uri: 'handoff://latest' });
    return {
      show: show.structuredContent,
      text: show.content.map((c: { text?: string }) => c.text ?? '').join('\n'),
      log: log.structuredContent,
      diff: diff.structuredContent,
      resource: (res.contents[0] as { text?: string }).text ?? '',
    };
  } finally {
    await client.close();
  }
}

/** search lists newest first: the first hit of a word every version holds is the latest. */
function expectSearch(repo: FleetRepo, want: Expected): void {
  const search = handoff(repo, ['search', 'parser', '--json']);
  expect(search.code, search.stderr).toBe(0);
  expect(search.json.results[0].version, `${repo.name}: search, first hit`).toBe(want.latest);
}

interface Expected {
  latest: string;
  summary: string;
  /** the other head, or null when there is none */
  other: { version: string; askUser: string } | null;
}

/** Every reader of one clone, against what both clones must say. */
async function expectReaders(repo: FleetRepo, want: Expected, opts: { search?: boolean } = {}): Promise<void> {
  const who = (reader: string) => `${repo.name}: ${reader}`;
  const show = handoff(repo, ['show', '--json']);
  expect(show.code, show.stderr).toBe(0);
  expect(show.json.version, who('show --json')).toBe(want.latest);
  expect(show.json.handoff.summary, who('show --json summary')).toBe(want.summary);
  if (want.other) {
    expect(show.json.diverged, who('show --json diverged')).toEqual([
      expect.objectContaining({ version: want.other.version, holds: expect.objectContaining({ ask_user: [want.other.askUser] }) }),
    ]);
  } else expect(show.json.diverged, who('show --json diverged')).toBe(false);

  const text = handoff(repo, ['show']);
  expect(text.code, text.stderr).toBe(0);
  const said = text.stdout + text.stderr;
  expect(said, who('show names the latest')).toContain(want.latest.slice(0, 12));
  if (want.other) {
    expect(said, who('show says they diverged')).toContain(`two sessions diverged: version ${want.other.version.slice(0, 12)}`);
    // the other session's question for the user does not vanish from the bookmark
    expect(said, who("show keeps the other session's ask_user")).toContain(want.other.askUser);
    expect(said, who('show names the joining write')).toContain('git handoff write --continue ');
  } else expect(said, who('show says nothing of a divergence')).not.toContain('diverged');

  const log = handoff(repo, ['log', '--json']);
  expect(log.json.versions[0].version, who('log --json first row')).toBe(want.latest);
  if (want.other) expect(log.json.versions[1].version, who('log --json second row: the other head')).toBe(want.other.version);

  const diff = handoff(repo, ['diff', '--json']);
  expect(diff.code, diff.stderr).toBe(0);
  expect(diff.json.new, who('diff default new')).toBe(want.latest);
  expect(diff.json.old, who('diff default old')).not.toBe(want.latest);

  const tilde1 = handoff(repo, ['show', '--json', '--version', '~1']);
  expect(tilde1.code, tilde1.stderr).toBe(0);
  expect(tilde1.json.version, who('show --version ~1 is not the latest')).not.toBe(want.latest);
  if (want.other) expect(tilde1.json.version, who('show --version ~1 is the other head')).toBe(want.other.version);

  if (opts.search !== false) expectSearch(repo, want);

  const exp = handoff(repo, ['export', '--format', 'json']);
  expect(exp.code, exp.stderr).toBe(0);
  expect(JSON.parse(exp.stdout).summary, who('export')).toBe(want.summary);

  // the agent's session-start hook (Claude Code's input, in a project whose instructions
  // ask for handoffs): the bookmark it gives the agent
  repo.write('CLAUDE.md', '# Rules\n\nsession handoff: read on start, write on end\n');
  const start = handoff(repo, ['hook', 'session-start', '--agent', 'claude'], {
    input: JSON.stringify({ session_id: `start-${repo.name}-${want.latest.slice(0, 8)}`, cwd: repo.dir, hook_event_name: 'SessionStart', source: 'startup' }),
  });
  expect(start.code, start.stderr).toBe(0);
  const context: string = JSON.parse(start.stdout).hookSpecificOutput.additionalContext;
  expect(context, who('session-start names the latest')).toContain(want.latest.slice(0, 12));
  if (want.other) {
    expect(context, who('session-start says they diverged')).toContain(`two sessions diverged: version ${want.other.version.slice(0, 12)}`);
    expect(context, who("session-start keeps the other session's ask_user")).toContain(want.other.askUser);
  } else expect(context, who('session-start says nothing of a divergence')).not.toContain('diverged');

  // sync's messages (text and JSON) and doctor name the same heads; neither writes anything here
  const before = repo.notesRef();
  const syncText = handoff(repo, ['sync']);
  expect(syncText.code, syncText.stderr).toBe(0);
  const syncJson = handoff(repo, ['sync', '--json']);
  expect(syncJson.code, syncJson.stderr).toBe(0);
  const doctor = handoff(repo, ['doctor']);
  const doctorJson = handoff(repo, ['doctor', '--json']);
  expect(doctorJson.json?.ok, who('doctor --json')).toBe(true);
  const divergedFindings = doctorJson.json.findings.filter((f: any) => f.kind === 'diverged');
  if (want.other) {
    const line = `two sessions diverged: version ${want.other.version.slice(0, 12)}`;
    const latest = `the latest, version ${want.latest.slice(0, 12)}`;
    const join = `git handoff write --continue ${want.latest.slice(0, 12)},${want.other.version.slice(0, 12)}`;
    expect(syncText.stdout, who('sync says they diverged')).toContain(line);
    expect(syncText.stdout, who('sync names the latest')).toContain(latest);
    expect(syncText.stdout, who('sync names the joining write')).toContain(join);
    expect(syncJson.json.latest, who('sync --json latest')).toBe(want.latest);
    expect(syncJson.json.diverged, who('sync --json diverged')).toEqual([
      expect.objectContaining({ version: want.other.version, holds: expect.objectContaining({ ask_user: [want.other.askUser] }) }),
    ]);
    expect(doctor.stdout, who('doctor says they diverged')).toMatch(new RegExp(`^note: ${line}.*${latest}.*'${join}'`, 'm'));
    expect(divergedFindings, who('doctor --json')).toEqual([
      expect.objectContaining({ level: 'note', subject: want.other.version, versions: [want.latest, want.other.version] }),
    ]);
  } else {
    expect(syncText.stdout, who('sync says nothing of a divergence')).not.toContain('diverged');
    expect(syncJson.json.diverged, who('sync --json: no diverged key')).toBeUndefined();
    expect(doctor.stdout, who('doctor says nothing of a divergence')).not.toContain('diverged');
    expect(divergedFindings, who('doctor --json')).toEqual([]);
  }
  expect(repo.notesRef(), who('sync and doctor wrote nothing')).toBe(before);

  // the agent's prompt hook, when the user ends the session: the write it asks for joins the heads
  const prompt = handoff(repo, ['hook', 'user-prompt-submit', '--agent', 'claude'], {
    input: JSON.stringify({
      session_id: `start-${repo.name}-${want.latest.slice(0, 8)}`,
      cwd: repo.dir,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'end session',
    }),
  });
  expect(prompt.code, prompt.stderr).toBe(0);
  const asked: string = JSON.parse(prompt.stdout).hookSpecificOutput.additionalContext;
  expect(asked, who('prompt hook: write now')).toContain('the user is ending the session');
  if (want.other) {
    expect(asked, who('prompt hook names the joining write')).toContain(
      `git handoff write --continue ${want.latest.slice(0, 12)},${want.other.version.slice(0, 12)}`,
    );
    expect(asked, who('prompt hook says they diverged')).toContain(`two sessions diverged: version ${want.other.version.slice(0, 12)}`);
    expect(asked, who("prompt hook keeps the other session's ask_user")).toContain(want.other.askUser);
  } else expect(asked, who('prompt hook says nothing of a divergence')).not.toContain('diverged');

  const mcp = await mcpReaders(repo);
  expect(mcp.show.version, who('MCP handoff_show')).toBe(want.latest);
  expect(mcp.log.versions[0].version, who('MCP handoff_log first row')).toBe(want.latest);
  expect(mcp.diff.new, who('MCP handoff_diff new')).toBe(want.latest);
  expect(mcp.resource, who('MCP handoff://latest')).toContain(want.summary);
  if (want.other) {
    expect(mcp.show.diverged, who('MCP handoff_show diverged')).toEqual([expect.objectContaining({ version: want.other.version })]);
    expect(mcp.text, who('MCP handoff_show says they diverged')).toContain('two sessions diverged');
    expect(mcp.text, who("MCP handoff_show keeps the other session's ask_user")).toContain(want.other.askUser);
  } else expect(mcp.show.diverged, who('MCP handoff_show diverged')).toBe(false);
}

describe('two clones write concurrently, then sync', () => {
  let fleet: Fleet;
  let a: FleetRepo;
  let b: FleetRepo;
  let diverged: Expected;
  const askUser = 'Should the parser accept tabs?';

  beforeAll(() => {
    fleet = new Fleet(2);
    [a, b] = fleet.clones;
    // Both start from one version, which both clones hold.
    a.commit('feat: the parser starts', { 'parser.txt': '1\n' });
    a.git('push', '-q', 'origin', 'main');
    const base = writeVersion(a, 'parser: the base both sessions start from');
    sync(a);
    b.git('pull', '-q', 'origin', 'main');
    sync(b);
    expect(handoff(b, ['show', '--json']).json.version).toBe(base);

    // b works on a newer commit; a writes later by the clock, on the older commit.
    b.commit('feat: the parser grows', { 'parser.txt': '2\n' });
    const onNewer = writeVersion(b, 'parser: b on the newer commit', ['--session', 'session-b', '--add-note', 'b tried the fast path']);
    const later = writeVersion(a, 'parser: a later by the clock', ['--session', 'session-a', '--add-ask-user', askUser]);
    expect(handoff(a, ['show', '--json']).json.continues).toEqual([base]);
    expect(handoff(b, ['show', '--json']).json.continues).toEqual([base]);

    // Sync both ways and pull the code: both clones hold the same commits and notes ref.
    b.git('push', '-q', 'origin', 'main');
    sync(a);
    sync(b);
    sync(a);
    a.git('pull', '-q', '--ff-only', 'origin', 'main');
    expect(a.head()).toBe(b.head());
    expect(a.notesRef()).toBe(b.notesRef());
    // b's head is on a commit that descends from a's: it comes first, in both clones.
    diverged = { latest: onNewer, summary: 'parser: b on the newer commit', other: { version: later, askUser } };
  });

  it('every reader of both clones names the same latest and says they diverged', async () => {
    for (const repo of [a, b]) await expectReaders(repo, diverged, { search: false });
  });

  // Search lists in the one reader's order: the heads first, so a's version (later by the
  // clock) comes after the latest (it failed while search ordered its hits by the clock).
  it('search lists the latest first while they are diverged', () => {
    for (const repo of [a, b]) expectSearch(repo, diverged);
  });

  // The post-commit rule's boundary is the latest the one reader names (b's head, on the newer
  // commit): the first commit after it is substantive. By date (a's head, later by the clock,
  // on the older commit) b's commit would lie between and no reminder would come. A third
  // clone, brought the same commits and notes, commits with the hooks init installs.
  it('the post-commit rule in a third clone: its no-Node fast path says nothing, its reminder counts from the latest and names the joining write', async () => {
    const c = fleet.clone('c');
    c.git('pull', '-q', '--ff-only', 'origin', 'main');
    expect(handoff(c, ['init']).code).toBe(0);
    sync(c);
    expect(c.head()).toBe(a.head());
    expect(c.notesRef()).toBe(a.notesRef());
    await expectReaders(c, diverged);
    const other = diverged.other!;
    // an excluded subject is answered by the shim without Node: nothing at all
    const docs = commitWithHooks(c, 'docs: the parser, described', { 'PARSER.md': 'p\n' });
    expect(docs.code, docs.stderr).toBe(0);
    expect(docs.stderr).toBe('');
    const feat = commitWithHooks(c, 'feat: the parser after both sessions', { 'parser2.txt': 'x\n' });
    expect(feat.code, feat.stderr).toBe(0);
    expect(handoffLines(feat.stderr)).toEqual([
      `git-handoff: substantive commit (the first commit since the last handoff); when this piece of work stops, record where it stands and join the sessions that diverged (versions ${diverged.latest.slice(0, 12)} and ${other.version.slice(0, 12)}) with 'git handoff write --continue ${diverged.latest.slice(0, 12)},${other.version.slice(0, 12)}'`,
    ]);
    // show agrees: this commit is the work made since the latest
    expect(handoff(c, ['show', '--json']).json).toMatchObject({ version: diverged.latest, due: true });
  });

  it('write --continue A,B joins them, keeping what the other head held; then no reader says diverged', async () => {
    const other = diverged.other!;
    const join = handoff(a, ['write', '--json', '--continue', `${diverged.latest},${other.version}`, '--summary', 'parser: both sessions joined']);
    expect(join.code, join.stderr).toBe(0);
    expect(join.json.handoff.ask_user).toContain(askUser);
    expect(join.json.handoff.soft_context.notes).toContain('b tried the fast path');
    const joined = join.json.version;
    expect(handoff(a, ['show', '--json']).json.continues).toEqual([diverged.latest, other.version]);
    sync(a);
    sync(b);
    expect(a.notesRef()).toBe(b.notesRef());
    for (const repo of [a, b]) await expectReaders(repo, { latest: joined, summary: 'parser: both sessions joined', other: null });
    for (const repo of fleet.all()) repo.fsck();
  });
});
