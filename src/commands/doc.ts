import type { CommandModule } from './types.js';
import { DRY_RUN_OPTION, JSON_OPTION, str } from './types.js';
import { LANG_OPTION, SESSION_OPTION, WORK_ITEM_OPTION, renderTransition, transitionJson } from './work-item-output.js';
import { withRepo } from '../app/repository.js';
import { docItem } from '../app/doc.js';
import { parseItemOption } from '../app/work-items.js';

export const command: CommandModule = {
  spec: {
    name: 'doc',
    summary: 'the handoff document of a work item: render its skeleton, or validate it and record a receipt',
    description:
      'Without docs/HANDOFF-<n>.md, renders the template skeleton there and changes nothing else. With it: validates (the seven sections, the SEED markers, no {{...}} placeholder outside SEED, referenced paths and receipts exist), writes the receipt, updates the provider, and rewrites the SEED section. The item stays in-progress unless --to-status ready-for-review. The same document again writes nothing and returns the same receipt.',
    options: {
      'work-item': WORK_ITEM_OPTION,
      session: SESSION_OPTION,
      'to-status': { type: 'string', arg: 'in-progress|ready-for-review', describe: 'the state to move to (default: in-progress)' },
      lang: LANG_OPTION,
      'dry-run': DRY_RUN_OPTION,
      json: JSON_OPTION,
    },
    examples: ["git handoff doc --work-item 'local:#7' --session s-42", "git handoff doc --work-item 'local:#7' --session s-42 --to-status ready-for-review"],
  },

  async run(args, ctx) {
    const v = args.values;
    const ref = parseItemOption(str(v['work-item']));
    const req = { ref, session: str(v.session), toStatus: str(v['to-status']), lang: str(v.lang), dryRun: Boolean(v['dry-run']) };
    const r = await withRepo(ctx.cwd, (repo) => docItem(repo, req));
    if (r.phase === 'skeleton') {
      if (ctx.json) return void ctx.io.json({ ok: true, work_item: r.workItem, phase: 'skeleton', path: r.path, dry_run: r.dryRun });
      if (r.dryRun) return void ctx.io.out(`dry run: would render the skeleton at ${r.path}; nothing was written\n`);
      return void ctx.io.out(`rendered ${r.path}: fill every {{...}} placeholder, then run this command again\n`);
    }
    if (ctx.json) return void ctx.io.json({ ...transitionJson(r), phase: 'handoff', path: r.path, seed_written: r.seedWritten });
    renderTransition(ctx, 'record the handoff of', r);
    if (r.seedWritten) ctx.io.out(`${r.dryRun ? 'would rewrite' : 'rewrote'} the SEED section of ${r.path}\n`);
  },
};
