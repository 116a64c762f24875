import type { CommandModule } from './types.js';
import { DRY_RUN_OPTION, JSON_OPTION } from './types.js';
import { withRepo, withRepoIfAny } from '../app/repository.js';
import { acceptTeam, newKey, showKey, type AcceptReport } from '../app/key.js';
import { UsageError } from '../errors.js';
import { visibleText } from '../core/visible-text.js';

export const command: CommandModule = {
  spec: {
    name: 'key',
    summary:
      'your age identity for team and private handoffs: `key new` makes one, `key show` prints its public key, `key accept` accepts the team readers at HEAD',
    description:
      'key new writes an age X25519 identity to $XDG_CONFIG_HOME/git-handoff/identity.txt (default ~/.config/git-handoff/identity.txt; handoff.identity names another file, e.g. one age-keygen made) with mode 0600, and never over an existing file. Without that file, or a backup of it, the private and team handoffs encrypted to it cannot be read again. key show prints the public key (age1...) to give to teammates for .handoff-recipients or to list in handoff.recipient on your other machines. key accept shows the readers in .handoff-recipients at HEAD, what changed since you accepted them last, and makes them the readers of your team writes: a change to that file that arrived with a pull, merge or checkout is used only once accepted. See docs/privacy.md.',
    positionals: [{ name: 'action', describe: "'new', 'show' or 'accept'" }],
    options: { 'dry-run': DRY_RUN_OPTION, json: JSON_OPTION },
    examples: ['git handoff key new', 'git handoff key show >> .handoff-recipients', 'git handoff key accept'],
  },

  async run(args, ctx) {
    const action = args.positionals[0];
    if (action === 'accept') return void renderAccept(await withRepo(ctx.cwd, (repo) => acceptTeam(repo, Boolean(args.values['dry-run']))), ctx);
    if (action !== 'new' && action !== 'show') throw new UsageError(`key: unknown action '${action ?? ''}' (use 'key new', 'key show' or 'key accept')`);
    const r = await withRepoIfAny(ctx.cwd, (repo) => (action === 'new' ? newKey(repo) : showKey(repo)));
    if (ctx.json) return void ctx.io.json({ ok: true, path: r.path, created: r.created, recipients: r.recipients });
    if (!r.created) return void ctx.io.out(`${r.recipients.join('\n')}\n`);
    ctx.io.out(`${r.recipients[0]}\n`);
    ctx.io.err(
      `git handoff: wrote a new age identity to ${r.path} (mode 0600); the line above is its public key.\n` +
        'git handoff: keep a backup of that file: without it the private and team handoffs encrypted to it can never be read again.',
    );
  },
};

function renderAccept(r: AcceptReport, ctx: Parameters<CommandModule['run']>[1]): void {
  if (ctx.json)
    return void ctx.io.json({
      ok: true,
      dry_run: r.dryRun,
      already: r.already,
      readers: r.readers.map((x) => ({ key: x.key, name: x.name })),
      changed_in: r.changedIn,
      since: r.since || null,
    });
  const n = `${r.readers.length} reader${r.readers.length === 1 ? '' : 's'}`;
  const where = r.changedIn ? ` (last changed in ${r.changedIn.commit.slice(0, 12)} by ${r.changedIn.author})` : '';
  const lines = [`.handoff-recipients at HEAD${where}: ${n}`, ...r.names.map((x) => `  ${x}`)];
  if (r.since) lines.push(r.since);
  if (r.removedNote) lines.push(r.removedNote);
  lines.push(
    r.dryRun
      ? `dry run: would accept these ${n} for your team handoffs; nothing was written`
      : `accepted: your team handoffs are encrypted to these ${n}${r.already ? ' (they were already in effect)' : ''}`,
  );
  ctx.io.out(`${lines.map((l) => visibleText(l)).join('\n')}\n`);
}
