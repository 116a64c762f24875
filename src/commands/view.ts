import type { CommandModule } from './types.js';
import { JSON_OPTION, str } from './types.js';
import { withRepo } from '../app/repository.js';
import { UsageError } from '../errors.js';

export const command: CommandModule = {
  spec: {
    name: 'view',
    summary: 'the history as a picture: a read-only local web page (127.0.0.1, a token in the URL)',
    description:
      'Serves the version graph, each bookmark as show prints it, diffs, search and work items on 127.0.0.1 only, and prints the one URL to open (a random token in it) on stdout; serves until SIGINT/SIGTERM. --html FILE writes the same view as one self-contained file (shared versions only by default). See docs/view.md.',
    options: {
      port: { type: 'string', arg: 'N', describe: 'the port to listen on (default 0: any free port)' },
      open: { type: 'boolean', describe: 'open the URL in the browser (xdg-open, open, start)' },
      html: { type: 'string', arg: 'FILE', describe: 'write the view as one self-contained HTML file instead of serving it' },
      'include-encrypted': { type: 'boolean', describe: 'with --html: also the encrypted versions you can read (the page says so at the top)' },
      json: JSON_OPTION,
    },
    examples: ['git handoff view', 'git handoff view --open', 'git handoff view --html handoffs.html'],
  },

  async run(args, ctx) {
    const html = str(args.values.html);
    const includeEncrypted = Boolean(args.values['include-encrypted']);
    if (html !== undefined) {
      if (args.values.port !== undefined || args.values.open) throw new UsageError('view: --html writes a file; --port and --open are for the server');
      if (!html) throw new UsageError('view: --html needs a file name');
      const r = await withRepo(ctx.cwd, async (repo) =>
        (await import('../app/view/snapshot.js')).writeViewFile(repo, { file: html, cwd: ctx.cwd, includeEncrypted }),
      );
      if (ctx.json) return void ctx.io.json({ ok: true, file: r.path, versions: r.versions, encrypted: r.encrypted, omitted: r.omitted, bytes: r.bytes });
      const enc = r.encrypted ? `, ${r.encrypted} of them encrypted (readable by whoever has the file)` : '';
      const left = r.omitted
        ? `; ${r.omitted} encrypted version${r.omitted === 1 ? '' : 's'} left out${includeEncrypted ? ' (not readable with your keys)' : ' (--include-encrypted adds those you can read)'}`
        : '';
      return void ctx.io.out(`wrote ${html}: ${r.versions} version${r.versions === 1 ? '' : 's'}${enc}, ${Math.ceil(r.bytes / 1024)} KiB${left}\n`);
    }
    if (includeEncrypted) throw new UsageError('view: --include-encrypted goes with --html');
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
