import type { CommandModule } from './types.js';
import { JSON_OPTION } from './types.js';
import { withRepoIfAny } from '../app/repository.js';
import { newKey, showKey } from '../app/key.js';
import { UsageError } from '../errors.js';

export const command: CommandModule = {
  spec: {
    name: 'key',
    summary: 'your age identity for team and private handoffs: `key new` makes one, `key show` prints its public key',
    description:
      'key new writes an age X25519 identity to $XDG_CONFIG_HOME/git-handoff/identity.txt (default ~/.config/git-handoff/identity.txt; handoff.identity names another file, e.g. one age-keygen made) with mode 0600, and never over an existing file. Without that file, or a backup of it, the private and team handoffs encrypted to it cannot be read again. key show prints the public key (age1...) to give to teammates for .handoff-recipients or to list in handoff.recipient on your other machines. See docs/privacy.md.',
    positionals: [{ name: 'action', describe: "'new' or 'show'" }],
    options: { json: JSON_OPTION },
    examples: ['git handoff key new', 'git handoff key show >> .handoff-recipients'],
  },

  async run(args, ctx) {
    const action = args.positionals[0];
    if (action !== 'new' && action !== 'show') throw new UsageError(`key: unknown action '${action ?? ''}' (use 'key new' or 'key show')`);
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
