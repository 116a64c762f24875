import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CommandModule } from './types.js';
import { DRY_RUN_OPTION, JSON_OPTION, list, str } from './types.js';
import { Repo } from '../git/repo.js';
import { writeHandoff } from '../app/write.js';
import { relayMark, recordRelayMark } from '../app/relay-mark.js';
import { readStdin } from '../cli/io.js';
import { InvalidInput, UsageError } from '../errors.js';

export const command: CommandModule = {
  spec: {
    name: 'write',
    summary: 'append a new handoff version (YAML or JSON on stdin or --file, and flags)',
    description:
      'The whole handoff comes from stdin (when it is not a terminal) or --file; flags override its fields. With flags alone the latest version is carried forward and patched. Content identical to the latest version on the same commit appends nothing. A secret in the input refuses the write.',
    options: {
      file: { type: 'string', short: 'f', arg: 'path', describe: "read the handoff from a file ('-' for stdin)" },
      status: { type: 'string', arg: 'active|paused|done', describe: 'set status' },
      summary: { type: 'string', arg: 'text', describe: 'set summary' },
      session: { type: 'string', arg: 'id', describe: 'set session_id (default: $HANDOFF_SESSION_ID)' },
      'last-discussed': { type: 'string', arg: 'text', describe: 'set cursor.last_discussed' },
      'pending-question': { type: 'string', multiple: true, arg: 'text', describe: 'set cursor.pending_questions (repeat, at most 3)' },
      'next-step': { type: 'string', arg: 'text', describe: 'set cursor.next_step' },
      tone: { type: 'string', arg: 'text', describe: 'set soft_context.tone' },
      guard: { type: 'string', multiple: true, arg: 'text', describe: 'set guards (repeat)' },
      'ask-user': { type: 'string', multiple: true, arg: 'text', describe: 'set ask_user (repeat)' },
      'work-item': { type: 'string', arg: 'item', describe: 'set work_item (github:owner/repo#N or local:#N)' },
      produced: { type: 'string', multiple: true, arg: 'path', describe: 'a document the fidelity sweep produced (repeat); fills consolidation' },
      relay: { type: 'boolean', describe: "mark this version as handing over to a new session ('git handoff relay')" },
      'dry-run': DRY_RUN_OPTION,
      json: JSON_OPTION,
    },
    examples: [
      "git handoff write --summary 'parser done; tests next' --next-step 'write the e2e tests'",
      'git handoff write < handoff.yaml',
    ],
  },

  async run(args, ctx) {
    const v = args.values;
    const file = str(v.file);
    let input: Buffer | null = null;
    let inputName = 'stdin';
    if (file !== undefined && file !== '-') {
      inputName = file;
      try {
        input = readFileSync(resolve(ctx.cwd, file));
      } catch (e) {
        throw new InvalidInput(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
      }
      if (input.length === 0) throw new InvalidInput(`${file} is empty`);
    } else {
      input = await readStdin(ctx.io);
      if (file === '-' && !input) throw new UsageError('write: --file - given but stdin is empty');
    }
    const repo = await Repo.discover(ctx.cwd);
    try {
      const mark = await relayMark(repo, Boolean(v.relay));
      const r = await writeHandoff(repo, {
        trailers: mark?.trailers,
        input,
        inputName,
        dryRun: Boolean(v['dry-run']),
        flags: {
          status: str(v.status),
          summary: str(v.summary),
          session: str(v.session),
          lastDiscussed: str(v['last-discussed']),
          pendingQuestions: list(v['pending-question']),
          nextStep: str(v['next-step']),
          tone: str(v.tone),
          guards: list(v.guard),
          askUser: list(v['ask-user']),
          workItem: str(v['work-item']),
          produced: list(v.produced),
        },
      });
      if (mark && !r.dryRun && !r.unchanged) recordRelayMark(repo, mark, r.version!);
      if (ctx.json) {
        ctx.io.json({ ok: true, version: r.version, target: r.target, unchanged: r.unchanged, ...(r.dryRun ? { dry_run: true } : {}), ...(mark ? { relay: mark.reason } : {}), handoff: r.handoff });
      } else if (r.unchanged) {
        ctx.io.out(`unchanged: version ${r.version!.slice(0, 12)} already holds this handoff for ${r.target.slice(0, 7)}\n`);
      } else if (r.dryRun) {
        ctx.io.out(`dry run: would append a version for ${r.target.slice(0, 7)}${r.handoff.branch ? ` on ${r.handoff.branch}` : ''} with this note:\n${r.yaml}`);
      } else {
        ctx.io.out(`wrote version ${r.version!.slice(0, 12)} for ${r.target.slice(0, 7)}${r.handoff.branch ? ` on ${r.handoff.branch}` : ' (detached HEAD)'}${mark ? '; it asks for a relay' : ''}\n`);
      }
    } finally {
      repo.close();
    }
  },
};
