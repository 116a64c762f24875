import { resolve } from 'node:path';
import type { CommandModule } from './types.js';
import { str } from './types.js';
import { withRepo } from '../app/repository.js';
import { UsageError } from '../errors.js';

export const command: CommandModule = {
  spec: {
    name: 'mcp',
    summary: 'serve the handoff store to agents over the Model Context Protocol (stdio; --http for Streamable HTTP)',
    description:
      'Tools: handoff_show, handoff_write, handoff_log, handoff_diff, handoff_search, work_item_status, work_item_seed; resources handoff://latest and handoff://latest/bookmark. Over stdio it serves until its input ends. With --http it listens on 127.0.0.1 only (http://127.0.0.1:PORT/mcp) until SIGINT/SIGTERM. `git handoff init --agent <name>` registers it with the agent.',
    options: {
      repo: { type: 'string', arg: 'path', describe: 'the repository to serve (default: the current folder)' },
      http: { type: 'boolean', describe: 'serve Streamable HTTP on 127.0.0.1 instead of stdio' },
      port: { type: 'string', arg: 'N', describe: 'the port for --http (default 0: any free port, named on stderr)' },
    },
    examples: ['git handoff mcp', 'git handoff mcp --repo ~/src/project', 'git handoff mcp --http --port 8765'],
  },

  async run(args, ctx) {
    const portRaw = str(args.values.port);
    const port = portRaw === undefined ? 0 : Number(portRaw);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`mcp: --port needs a port number, not '${portRaw}'`);
    if (portRaw !== undefined && !args.values.http) throw new UsageError('mcp: --port needs --http');
    const dir = resolve(ctx.cwd, str(args.values.repo) ?? '.');
    // Refuse at once (exit 1, one line) rather than on every tool call.
    await withRepo(dir, () => undefined);
    const { runMcpServer } = await import('../app/mcp/server.js');
    return runMcpServer({ dir, version: ctx.version, http: args.values.http ? { port } : undefined, log: (l) => ctx.io.err(l) });
  },
};
