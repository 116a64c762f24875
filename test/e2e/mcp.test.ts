/**
 * `git handoff mcp` driven by the SDK's own client over stdio, through a whole session,
 * against the installed CLI and a real repository.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { TestRepo } from '../helpers/repo.js';
import { cliPath, handoff } from '../helpers/cli.js';
import { FakeSecrets } from '../helpers/fake-secrets.js';

const env = (repo: TestRepo) => ({ ...(repo.tick() as Record<string, string>), PATH: cliPath() });
const data = (r: any) => r.structuredContent as any;

describe('git handoff mcp over stdio, with the SDK client', () => {
  let repo: TestRepo;
  let client: Client;
  let transport: StdioClientTransport;
  let stderr = '';

  beforeAll(async () => {
    repo = TestRepo.init();
    repo.commit('feat: start the parser', { 'a.txt': '1\n' });
    transport = new StdioClientTransport({ command: 'git', args: ['handoff', 'mcp'], cwd: repo.dir, env: env(repo), stderr: 'pipe' });
    transport.stderr?.on('data', (b) => (stderr += b));
    client = new Client({ name: 'handoff-e2e', version: '1.0.0' });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('lists the tools with schemas generated from the handoff schema, and the resources', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'handoff_show',
      'handoff_write',
      'handoff_log',
      'handoff_diff',
      'handoff_search',
      'work_item_status',
      'work_item_seed',
    ]);
    const write = tools.find((t) => t.name === 'handoff_write')!;
    const h = (write.inputSchema.properties as any).handoff;
    expect(h.properties.status.enum).toEqual(['active', 'paused', 'done']);
    expect(h.properties.cursor.properties.pending_questions.maxItems).toBe(3);
    expect(Object.keys(h.properties)).toContain('mid_task');
    expect(write.annotations?.readOnlyHint).toBe(false);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['handoff://latest', 'handoff://latest/bookmark']);
  });

  it('runs a session: show, write, a refused secret, a patch, log, diff, search, bad arguments, and the server stays up', async () => {
    // show before anything is written
    let r: any = await client.callTool({ name: 'handoff_show', arguments: {} });
    expect(r.isError).toBeFalsy();
    expect(data(r).handoff).toBeNull();

    // a whole handoff, with multi-line text and quotes that break shell quoting
    r = await client.callTool({
      name: 'handoff_write',
      arguments: {
        handoff: {
          summary: 'parser: "quotes" and \'apostrophes\'\nsecond line',
          cursor: { next_step: 'write the RFC 4180 tests', pending_questions: ['CRLF?'] },
          guards: ['no force push'],
        },
      },
    });
    expect(r.isError, JSON.stringify(r)).toBeFalsy();
    const v1 = data(r).version;
    expect(v1).toMatch(/^[0-9a-f]{40}$/);
    expect(data(r).change_summary).toMatch(/^first version/);
    expect(repo.nativeNote()).toContain('next_step: write the RFC 4180 tests');

    // a secret is refused with our stable code, and nothing is written
    const tip = repo.notesRef();
    const token = new FakeSecrets(7).githubClassic();
    r = await client.callTool({ name: 'handoff_write', arguments: { patch: { summary: `use ${token} for the API` } } });
    expect(r.isError).toBe(true);
    expect(data(r).error.code).toBe('SecretDetected');
    expect(r.content[0].text).toMatch(/^SecretDetected: secret found in summary/);
    expect(r.content[0].text).not.toContain(token);
    expect(repo.notesRef()).toBe(tip);

    // a patch changes only what it names; null removes
    repo.commit('feat: quoting', { 'a.txt': '2\n' });
    r = await client.callTool({ name: 'handoff_write', arguments: { patch: { status: 'paused', cursor: { next_step: 'ship 解析器 парсер' }, guards: null } } });
    expect(r.isError, JSON.stringify(r)).toBeFalsy();
    const v2 = data(r).version;
    expect(data(r).handoff.summary).toBe('parser: "quotes" and \'apostrophes\'\nsecond line');
    expect(data(r).handoff.cursor.pending_questions).toEqual(['CRLF?']);
    expect(data(r).handoff.guards).toEqual([]);
    expect(data(r).change_summary).toMatch(/changed status, cursor.next_step/);
    expect(data(r).change_summary).toMatch(/removed 1 guard/);

    // log, newest first
    r = await client.callTool({ name: 'handoff_log', arguments: { limit: 5 } });
    expect(data(r).versions.map((v: any) => v.version)).toEqual([v2, v1]);

    // diff, field by field
    r = await client.callTool({ name: 'handoff_diff', arguments: {} });
    expect(data(r).old).toBe(v1);
    expect(data(r).new).toBe(v2);
    expect(data(r).changes.map((c: any) => c.field)).toEqual(expect.arrayContaining(['status', 'cursor.next_step']));

    // search, in three languages
    for (const q of ['quotes', '解析器', 'парсер']) {
      r = await client.callTool({ name: 'handoff_search', arguments: { query: q } });
      expect(r.isError, q).toBeFalsy();
      expect(data(r).results[0]?.version, q).toBeDefined();
    }
    r = await client.callTool({ name: 'handoff_search', arguments: { query: '解析器' } });
    expect(data(r).results.map((h: any) => [h.version, h.field])).toEqual([[v2, 'cursor.next_step']]);

    // malformed arguments: tool errors with our codes, the server stays up
    for (const [name, args, code] of [
      ['handoff_write', { handoff: 'not a mapping' }, 'UsageError'],
      ['handoff_write', { handoff: { status: 'sleeping' } }, 'InvalidHandoff'],
      ['handoff_write', {}, 'UsageError'],
      ['handoff_log', { limit: -1 }, 'UsageError'],
      ['handoff_search', {}, 'UsageError'],
      ['handoff_show', { version: 'zz-not-a-version' }, 'UnknownVersion'],
      ['work_item_seed', { work_item: 'nonsense' }, 'UsageError'],
    ] as const) {
      r = await client.callTool({ name, arguments: args as Record<string, unknown> });
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(data(r).error.code, `${name} ${JSON.stringify(args)}`).toBe(code);
    }
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool/);

    // still serving, and the resource gives the latest note of the branch
    r = await client.callTool({ name: 'handoff_show', arguments: {} });
    expect(data(r).version).toBe(v2);
    expect(r.content[0].text).toContain('ship 解析器 парсер');
    const res = await client.readResource({ uri: 'handoff://latest' });
    expect((res.contents[0] as any).text).toContain('status: paused');
    expect(handoff(repo, ['show', '--json']).json.version).toBe(v2);
    expect(stderr).toBe('');
  });
});

describe('git handoff mcp, raw protocol', () => {
  it('survives garbage on stdin and exits 0 by itself when its input ends', async () => {
    const repo = TestRepo.init();
    repo.commit('feat: one', { 'a.txt': '1\n' });
    const child = spawn('git', ['handoff', 'mcp', '--repo', repo.dir], { cwd: '/', env: env(repo) });
    let out = '';
    let err = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (err += b));
    const lines = [
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      'this is not json {',
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":5}',
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"handoff_write","arguments":{"handoff":{"summary":"after the garbage"}}}}',
      '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"handoff_show","arguments":{}}}',
    ];
    child.stdin.end(`${lines.join('\n')}\n`);
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on('exit', (c, s) => resolve([c, s])));
    expect([code, signal]).toEqual([0, null]);
    const replies = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const byId = new Map(replies.map((m) => [m.id, m]));
    expect(byId.get(2).error).toBeDefined();
    expect(byId.get(3).result.isError).toBeFalsy();
    expect(byId.get(4).result.structuredContent.handoff.summary).toBe('after the garbage');
    expect(byId.get(null).error.code).toBe(-32700);
    expect(byId.get(2).error.code).toBe(-32600);
    // one line on stderr for each bad message, naming it
    const errLines = err.trim().split('\n');
    expect(errLines).toHaveLength(2);
    for (const l of errLines) expect(l).toMatch(/^git handoff mcp: not (JSON|a JSON-RPC message)/);
  });

  it('refuses a folder that is not a repository with one line and exit 1', async () => {
    const repo = TestRepo.init();
    const r = handoff(repo, ['mcp', '--repo', '/']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
