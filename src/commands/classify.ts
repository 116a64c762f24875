import type { CommandModule } from './types.js';
import { JSON_OPTION } from './types.js';
import { readStdin } from '../cli/io.js';
import { classifyMessage } from '../app/classify.js';
import { UsageError } from '../errors.js';

export const command: CommandModule = {
  spec: {
    name: 'classify',
    summary: 'is this message a session end, a task-zone phrase, ambiguous, or neither',
    description:
      "Whole phrases, case and punctuation insensitive, anywhere in the message (Russian, English, Chinese). Inside a repository the lists under 'phrases' in .harness/session-workflow.yaml replace the built-in ones, once that policy is approved ('git handoff policy approve'). Without TEXT (or with '-') the message is read from stdin.",
    positionals: [{ name: 'text', describe: 'the message', optional: true, variadic: true }],
    options: { json: JSON_OPTION },
    examples: ["git handoff classify 'ок, завершаем сессию'", 'echo "let\'s wrap up" | git handoff classify --json'],
  },

  async run(args, ctx) {
    let text = args.positionals.join(' ');
    if (args.positionals.length === 0 || text === '-') {
      const input = await readStdin(ctx.io);
      if (!input) throw new UsageError('classify: give the message as TEXT or on stdin');
      text = input.toString('utf8');
    }
    const r = await classifyMessage(ctx.cwd, text);
    for (const p of r.problems) ctx.io.err(`git handoff: warning: ${p}`);
    if (ctx.json) return void ctx.io.json({ ok: true, class: r.class, matched: r.matched });
    if (r.class === 'none') return void ctx.io.out(`none${r.farewell ? ` ('${r.farewell}' is a broad farewell, never a trigger)` : ''}\n`);
    ctx.io.out(`${r.class}${r.matched ? ` (matched: ${r.matched})` : ''}\n`);
  },
};
