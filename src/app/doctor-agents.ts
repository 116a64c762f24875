/**
 * `doctor`'s check of the agent hooks that need the user's consent before they run (issue
 * 17): Codex runs project hooks only in a trusted project, once each hook is trusted, and
 * headless `codex exec` skips untrusted ones without a word. Read from
 * `$CODEX_HOME/config.toml` (default `~/.codex`); nothing is changed.
 */
import { dirname, join } from 'node:path';
import type { Repo } from '../git/repo.js';
import { codexTrust } from '../agents/codex-trust.js';
import { OUR_COMMAND } from '../agents/settings.js';
import type { Finding } from './doctor-finding.js';
import { readRegularFile } from '../state/bounded-file.js';

function read(path: string): string | null {
  try {
    return readRegularFile(path, path)?.toString('utf8') ?? null;
  } catch {
    return null;
  }
}

function ancestors(dir: string): string[] {
  const out = [dir];
  for (let d = dirname(dir); d !== out[out.length - 1]; d = dirname(d)) out.push(d);
  return out;
}

export function checkAgentTrust(repo: Repo, env: NodeJS.ProcessEnv): Finding[] {
  if (!repo.workTree) return [];
  const hooksPath = join(repo.workTree, '.codex/hooks.json');
  const hooksText = read(hooksPath);
  if (hooksText === null || !hooksText.includes('--agent codex')) return [];
  const home = env.CODEX_HOME || join(env.HOME || process.getBuiltinModule('node:os').homedir(), '.codex');
  const configPath = join(home, 'config.toml');
  const config = read(configPath);
  const t = codexTrust(config, configPath, hooksPath, hooksText, ancestors(repo.workTree), (c) => OUR_COMMAND.test(c) && c.endsWith(' --agent codex'));
  const skipped = t.hooks.filter((h) => h.status !== 'trusted');
  if (t.projectTrusted && !skipped.length) return [];
  const why = [
    ...(t.unreadable ? [`${t.unreadable} (Codex cannot read it either)`] : t.projectTrusted ? [] : [`the project is not trusted in ${configPath}`]),
    ...(skipped.some((h) => h.status === 'untrusted')
      ? [
          `not trusted yet: ${skipped
            .filter((h) => h.status === 'untrusted')
            .map((h) => h.event)
            .join(', ')}`,
        ]
      : []),
    ...(skipped.some((h) => h.status === 'modified')
      ? [
          `changed since you trusted them: ${skipped
            .filter((h) => h.status === 'modified')
            .map((h) => h.event)
            .join(', ')}`,
        ]
      : []),
  ];
  return [
    {
      kind: 'agent',
      subject: '.codex/hooks.json',
      message: `Codex will not run the git-handoff hooks in .codex/hooks.json (${why.join('; ')})`,
      action:
        "run 'codex' in this repository, trust the project and review the hooks with /hooks; for headless 'codex exec' trust them that way once, or pass --dangerously-bypass-hook-trust, which runs every hook this repository's .codex/hooks.json names, not only ours: review them first",
      fixable: false,
      fixed: false,
      // a machine where Codex never ran (no config.toml) has nothing to fix yet
      note: config === null,
    },
  ];
}
