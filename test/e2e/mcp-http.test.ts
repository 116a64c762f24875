/** `git handoff mcp --http`: Streamable HTTP on 127.0.0.1 only, with the SDK's own client. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TestRepo } from '../helpers/repo.js';
import { cliPath } from '../helpers/cli.js';

describe('git handoff mcp --http', () => {
  let repo: TestRepo;
  let child: ChildProcess;
  let url: string;
  let stderr = '';

  beforeAll(async () => {
    repo = TestRepo.init();
    repo.commit('feat: one', { 'a.txt': '1\n' });
    // the bin itself, not through git: a signal must reach the server, not git's wrapper
    child = spawn('git-handoff', ['mcp', '--http'], { cwd: repo.dir, env: { ...repo.tick(), PATH: cliPath() } });
    url = await new Promise<string>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no address in 20 s: ${stderr}`)), 20_000);
      child.stderr!.on('data', (b) => {
        stderr += b;
        const m = /serving (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
        if (m) {
          clearTimeout(t);
          resolve(m[1]);
        }
      });
    });
  });
  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('serves the tools to the SDK client, on 127.0.0.1 only', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 'http-e2e', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const w: any = await client.callTool({ name: 'handoff_write', arguments: { handoff: { summary: 'over http' } } });
      expect(w.isError, JSON.stringify(w)).toBeFalsy();
      const s: any = await client.callTool({ name: 'handoff_show', arguments: {} });
      expect(s.structuredContent.handoff.summary).toBe('over http');
      const bad: any = await client.callTool({ name: 'handoff_log', arguments: { limit: 'ten' } });
      expect(bad.structuredContent.error.code).toBe('UsageError');
    } finally {
      await client.close();
    }
  });

  it('refuses a request naming another host (DNS rebinding)', async () => {
    const port = Number(new URL(url).port);
    const status = await new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      });
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/mcp',
          method: 'POST',
          headers: { host: 'evil.example:80', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(403);
  });

  it('stops with exit 0 on SIGTERM', async () => {
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', (c) => resolve(c));
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
  });
});
