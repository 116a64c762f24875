/**
 * Start-up stays lean: the MCP SDK is bundled only into the chunk that
 * `git handoff mcp` loads, never into the dispatcher, `show`, `write` or any hook path.
 */
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SDK = /@modelcontextprotocol|modelcontextprotocol\/sdk/;

describe('bundles', () => {
  const dist = join(inject('packageRoot'), 'dist');
  const files = readdirSync(dist).filter((f) => f.endsWith('.cjs'));

  it('only lazy-mcp-server.cjs holds the MCP SDK', () => {
    const withSdk = files.filter((f) => SDK.test(readFileSync(join(dist, f), 'utf8')));
    expect(withSdk).toEqual(['lazy-mcp-server.cjs']);
    for (const f of ['cli.cjs', 'cmd-show.cjs', 'cmd-hook.cjs', 'cmd-write.cjs', 'cmd-search.cjs', 'cmd-mcp.cjs']) expect(files, f).toContain(f);
    for (const f of files.filter((x) => x.startsWith('lazy-hooks-') || x === 'lazy-agent-hook.cjs')) expect(withSdk, f).not.toContain(f);
  });

  it('the mcp command reaches the SDK only through a lazy require', () => {
    const text = readFileSync(join(dist, 'cmd-mcp.cjs'), 'utf8');
    expect(text).toMatch(/require\("\.\/lazy-mcp-server\.cjs"\)/);
  });
});
