/**
 * Issue 22 point 4: MCP's handoff_show remembers the version it gave its session, and a
 * whole document that session writes with handoff_write continues it. Another agent wrote
 * meanwhile: the two are reported as diverged, never silently ordered.
 */
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliPath, handoff } from '../helpers/cli.js';
import { TestRepo } from '../helpers/repo.js';

describe('MCP: a session continues what handoff_show gave it', () => {
  it('a whole document written after another agent wrote is a divergence, continuing the version shown', async () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    const base = handoff(repo, ['write', '--json', '--summary', 'the base both agents start from']);
    expect(base.code, base.stderr).toBe(0);

    const transport = new StdioClientTransport({
      command: 'git',
      args: ['handoff', 'mcp'],
      cwd: repo.dir,
      env: { ...(repo.tick() as Record<string, string>), PATH: cliPath() },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'mcp-shown', version: '1.0.0' });
    await client.connect(transport);
    try {
      const call = async (name: string, args: Record<string, unknown> = {}) => {
        const r: any = await client.callTool({ name, arguments: args });
        expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
        return r.structuredContent;
      };
      expect((await call('handoff_show')).version).toBe(base.json.version);
      // Another agent writes meanwhile (a patch: it continues the head).
      const other = handoff(repo, ['write', '--json', '--summary', 'the other agent moved on']);
      expect(other.code, other.stderr).toBe(0);
      const mine = await call('handoff_write', { handoff: { summary: 'this session, from what it was shown' } });

      const show = handoff(repo, ['show', '--json']).json;
      const heads = [show.version, ...(show.diverged || []).map((d: { version: string }) => d.version)];
      expect(heads.sort(), 'both writes are heads').toEqual([mine.version, other.json.version].sort());
      const written = handoff(repo, ['show', '--json', '--version', mine.version]).json;
      expect(written.continues, 'the MCP write continues the version it was shown').toEqual([base.json.version]);

      // Having written, the session continues its own version: a second whole document is no new divergence.
      const next = await call('handoff_write', { handoff: { summary: 'this session again' } });
      expect(handoff(repo, ['show', '--json', '--version', next.version]).json.continues).toEqual([mine.version]);
    } finally {
      await client.close();
    }
  });
});
