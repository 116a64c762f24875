/**
 * doctor: versions written before lineage (docs/format.md "Lineage"), said once. They carry
 * no `Handoff-Continues`, so between them "latest" falls back to the order the history had
 * before: each continues what its commit has below it, then the newer date, then the
 * smaller id. Nothing to repair (a version is never rewritten to add lineage); the next
 * write continues the head and records its lineage.
 */
import type { Repo } from '../git/repo.js';
import { HandoffStore } from '../git/handoff-store.js';
import { versionsWithoutLineage } from '../git/notes-history.js';
import type { Finding } from './doctor-finding.js';
import { currentDivergence } from './show.js';
import { divergenceReport } from './show-report.js';

export async function checkLineage(repo: Repo): Promise<Finding[]> {
  const tip = await new HandoffStore(repo).tip();
  if (!tip) return [];
  const count = await versionsWithoutLineage(repo, tip);
  if (!count) return [];
  return [
    {
      kind: 'lineage',
      subject: tip,
      message: `${count} version${count === 1 ? ' was' : 's were'} written before lineage (no Handoff-Continues): among ${count === 1 ? 'it' : 'them'} "latest" falls back to the old order (the history, then date, then id)`,
      action: 'nothing to do: each new write records the version it continues',
      fixable: false,
      fixed: false,
      note: true,
      count,
    },
  ];
}

/**
 * Two or more heads on the current branch: sessions that worked from one version and did not
 * see each other's (docs/format.md "Heads and latest"). Nothing is broken and nothing is
 * lost, so it is a note; joining them is the user's write, which the note names.
 */
export async function checkDivergence(repo: Repo): Promise<Finding[]> {
  const d = await currentDivergence(repo);
  if (!d) return [];
  return divergenceReport(d).map((message, i) => ({
    kind: 'diverged' as const,
    subject: d.diverged[i].id,
    message,
    action: 'nothing to fix: the write it names joins them',
    fixable: false,
    fixed: false,
    note: true,
    versions: [d.latest.id, d.diverged[i].id],
  }));
}
