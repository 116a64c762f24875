/**
 * Users of the private and team handoffs tests (issue 26): a clone as one person (their own
 * config folder, so their own age identity, and their git identity), every object of a
 * repository as text, every file under a folder, the MCP server through the SDK's client and
 * the session-start hook's context.
 */
import { readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { FleetRepo } from './fleet.js';
import { cliPath, handoff } from './cli.js';
import { tempDir } from './repo.js';

/** The clone as `name`: a config folder of their own (their identity) and their git identity. */
export function asUser(repo: FleetRepo, name: string): FleetRepo {
  Object.assign(repo.env, {
    XDG_CONFIG_HOME: tempDir(`handoff-xdg-${name}-`),
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: `${name}@example.com`,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: `${name}@example.com`,
  });
  return repo;
}

/** `git handoff key new` for the clone's user: their public key. */
export function newKey(repo: FleetRepo): string {
  const r = handoff(repo, ['key', 'new']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

/** Every object of a repository, as git stores it decompressed. */
export function allObjectText(repo: FleetRepo): string {
  const ids = repo.git('cat-file', '--batch-all-objects', '--batch-check=%(objectname)').split('\n').filter(Boolean);
  return execFileSync('git', ['cat-file', '--batch'], { cwd: repo.dir, env: repo.env, input: ids.join('\n') + '\n', maxBuffer: 1 << 28 }).toString('latin1');
}

/** Every regular file under `dir`. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : []));
}

/** The MCP server of the clone, through the SDK's own client over stdio. */
export async function withMcp<T>(repo: FleetRepo, use: (c: Client) => Promise<T>): Promise<T> {
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

/** A tool result's text and structured content, as one string to look for markers in. */
export function mcpText(r: any): string {
  return (r.content as { text: string }[]).map((c) => c.text).join('\n') + JSON.stringify(r.structuredContent ?? null);
}

/** The context Claude Code's session-start hook gives the agent. */
export function sessionStartContext(repo: FleetRepo, id: string): string {
  const input = JSON.stringify({ session_id: id, transcript_path: '/tmp/t.jsonl', cwd: repo.dir, hook_event_name: 'SessionStart', source: 'startup' });
  const r = handoff(repo, ['hook', 'session-start', '--agent', 'claude'], { input });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
}
