import type { CommandModule } from './types.js';
import { DRY_RUN_OPTION, JSON_OPTION } from './types.js';
import { withRepo } from '../app/repository.js';
import { approvePolicy, currentPolicy } from '../app/policy.js';
import { toCanonicalYaml } from '../core/canonical.js';
import { UsageError } from '../errors.js';

export const command: CommandModule = {
  spec: {
    name: 'policy',
    summary: 'print the effective policy and its hash; `policy approve` records that hash',
    description:
      'The policy is .harness/session-workflow.yaml (built-in defaults when absent). The tool never writes it. A file whose hash is not approved is not trusted: commands that write refuse, seed uses the defaults.',
    positionals: [{ name: 'approve', describe: "'approve': record the current file's hash as approved (a person only)", optional: true }],
    options: { 'dry-run': DRY_RUN_OPTION, json: JSON_OPTION },
  },

  async run(args, ctx) {
    const action = args.positionals[0];
    if (action !== undefined && action !== 'approve') throw new UsageError(`policy: unknown action '${action}' (the only one is 'approve')`);
    const dryRun = Boolean(args.values['dry-run']);
    if (action === 'approve') {
      const r = await withRepo(ctx.cwd, (repo) => approvePolicy(repo, { dryRun }));
      if (ctx.json) return void ctx.io.json({ ok: true, hash: r.hash, approved: !r.dryRun || r.unchanged, unchanged: r.unchanged, dry_run: r.dryRun });
      if (r.unchanged) return void ctx.io.out(`unchanged: policy ${r.hash} is already approved\n`);
      return void ctx.io.out(r.dryRun ? `dry run: would approve policy ${r.hash}; nothing was written\n` : `approved policy ${r.hash}\n`);
    }
    const p = await withRepo(ctx.cwd, (repo) => {
      if (dryRun) throw new UsageError('policy: --dry-run goes with approve');
      return currentPolicy(repo);
    });
    if (ctx.json)
      return void ctx.io.json({ ok: true, path: p.path, exists: p.exists, hash: p.hash, approved: p.approved, trusted: p.trusted, policy: p.declared });
    const head = p.exists
      ? `# ${p.path} ${p.hash} (${p.approved ? 'approved' : "NOT approved: run 'git handoff policy approve' to trust it"})`
      : `# no ${p.path}: the built-in defaults apply`;
    ctx.io.out(`${head}\n${toCanonicalYaml(p.declared as unknown as Record<string, unknown>)}`);
  },
};
