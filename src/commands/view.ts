import type { CommandModule } from './types.js';
import { JSON_OPTION, str } from './types.js';
import { withRepo } from '../app/repository.js';
import { UsageError } from '../errors.js';

export const command: CommandModule = {
  spec: {
    name: 'view',
    summary: 'the history as a picture: a read-only local web page (127.0.0.1, a token in the URL)',
    description:
      'Serves the version graph, each bookmark as show prints it, diffs, search and work items on 127.0.0.1 only, and prints the one URL to open (a random token in it) on stdout; serves until SIGINT/SIGTERM. See docs/view.md.',
    options: {
      port: { type: 'string', arg: 'N', describe: 'the port to listen on (default 0: any free port)' },
      open: { type: 'boolean', describe: 'open the URL in the browser (xdg-open, open, start)' },
      json: JSON_OPTION,
    },
    examples: ['git handoff view', 'git handoff view --open', 'git handoff view --port 8700'],
  },

  async run(args, ctx) {
    const portRaw = str(args.values.port);
    const port = portRaw === undefined ? 0 : Number(portRaw);
    if (!/^\d+$/.test(portRaw ?? '0') || port > 65535) throw new UsageError(`view: --port needs a port number from 0 to 65535, not '${portRaw}'`);
    return withRepo(ctx.cwd, async (repo) => {
      const { serveView } = await import('../app/view/server.js');
      return serveView(repo, {
        port,
        open: Boolean(args.values.open),
        // one line either way: a script reads the first line and opens it
        listening: ({ url, port: bound }) => ctx.io.out(ctx.json ? `${JSON.stringify({ ok: true, url, port: bound })}\n` : `${url}\n`),
        notice: (line) => ctx.io.err(line),
      });
    });
  },
};
