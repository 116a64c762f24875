import type { CommandModule } from './types.js';
import { JSON_OPTION } from './types.js';
import { Repo } from '../git/repo.js';
import { readStdin } from '../cli/io.js';
import { classifyPhrase } from '../core/phrases.js';
import { loadPhrases } from '../app/phrases-policy.js';
import { isHandoffError, NotARepository, UsageError } from '../errors.js';

export const command: CommandModule = {
  spec: {
    name: 'classify',
    summary: 'is this message a session end, a task-zone phrase, ambiguous, or neither',
    description:
      "Whole phrases, case and punctuation insensitive, anywhere in the message (Russian, English, Chinese). Inside a repository the lists under 'phrases' in .harness/session-workflow.yaml replace the built-in ones, once that policy is approved ('git handoff policy approve'). Without TEXT (or with '-') the message is read from stdin.",
    positionals: [{ name: 'text', describe: 'the message', optional: true, variadic: true }],
    options: { json: JSON_OPTION },
    examples: ["git handoff classify 'ок, завершаем сессию'", "echo \"let's wrap up\" | git handoff classify --json"],
  },

  async run(args, ctx) {
    let text = args.positionals.join(' ');
    if (args.positionals.length === 0 || text === '-') {
      const input = await readStdin(ctx.io);
      if (!input) throw new UsageError('classify: give the message as TEXT or on stdin');
      text = input.toString('utf8');
    }
    let repo: Repo | null = null;
    try {
      repo = await Repo.discover(ctx.cwd);
    } catch (e) {
      if (!isHandoffError(e, NotARepository)) throw e;
    }
    const phrases = await loadPhrases(repo).finally(() => repo?.close());
    for (const p of phrases.problems) ctx.io.err(`git handoff: warning: ${p}`);
    const r = classifyPhrase(text, phrases.lists);
    // `none` matched nothing that counts: a broad farewell is named as such, never as "matched".
    const matched = r.class === 'none' ? null : r.matched;
    if (ctx.json) return void ctx.io.json({ ok: true, class: r.class, matched });
    if (r.class === 'none') return void ctx.io.out(`none${r.matched ? ` ('${r.matched}' is a broad farewell, never a trigger)` : ''}\n`);
    ctx.io.out(`${r.class}${matched ? ` (matched: ${matched})` : ''}\n`);
  },
};
