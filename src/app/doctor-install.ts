/**
 * `doctor`'s check of what `init` set up: the install record says which
 * installers ran; planning them again yields exactly what is missing or was changed since
 * (their plans are empty when all is in place), and `--fix` applies that plan.
 */
import type { Repo } from '../git/repo.js';
import { readInstallRecord } from '../state/install-files.js';
import { applyInstall, planInstall, type PlannedStep } from './install/index.js';
import type { InstallOptions, InstallRecord } from './install/types.js';
import type { Finding } from './doctor-finding.js';

/** The `init` options that make the recorded installers plan again. */
function recordedOptions(record: InstallRecord): InstallOptions {
  const ids = new Set([...record.files.map((f) => f.installer), ...record.config.map((c) => c.installer)]);
  const agents = [...ids].filter((id) => id.startsWith('agent-')).map((id) => id.slice('agent-'.length));
  return {
    display: record.config.some((c) => c.key.toLowerCase() === 'notes.displayref'),
    sync: ids.has('sync'),
    agent: agents,
    shared: record.files.some((f) => f.installer === 'agent-claude' && f.path === '.claude/settings.json'),
  };
}

export async function checkInstall(repo: Repo, fix: boolean): Promise<Finding[]> {
  if (repo.isBare) return [];
  const record = readInstallRecord<InstallRecord>(repo);
  if (!record) return [];
  const ids = new Set([...record.files.map((f) => f.installer), ...record.config.map((c) => c.installer)]);
  const planned = (await planInstall(repo, recordedOptions(record))).filter((s) => ids.has(s.installer));
  const steps = planned.filter((s): s is Exclude<PlannedStep, { kind: 'notice' }> => s.kind !== 'notice');
  // A hook of ours that no longer runs and that init cannot put back on its own.
  const stuck: Finding[] = planned.flatMap((s) =>
    s.kind === 'notice' && s.unreached
      ? [
          {
            kind: 'install' as const,
            subject: s.installer,
            message: s.summary,
            action: 'needs you: see the message, then run git handoff doctor --fix',
            fixable: false,
            fixed: false,
          },
        ]
      : [],
  );
  if (fix && steps.length) await applyInstall(repo, steps);
  return [
    ...stuck,
    ...steps.map((s) => ({
      kind: 'install' as const,
      subject: s.kind === 'file' ? s.path : s.kind === 'config' ? s.key : '',
      message: `${fix ? 'set up again' : "missing or changed since 'git handoff init'"}: ${s.summary}`,
      action: fix ? 'set it up again as init did' : '--fix sets it up again as init did',
      fixable: true,
      fixed: fix,
    })),
  ];
}
