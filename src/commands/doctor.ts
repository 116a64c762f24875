import type { CommandModule } from './types.js';
import { JSON_OPTION } from './types.js';
import { withRepo } from '../app/repository.js';
import { findingLevel, runDoctor, type DoctorResult, type Finding } from '../app/doctor.js';
import { visibleText } from '../core/visible-text.js';

export const command: CommandModule = {
  spec: {
    name: 'doctor',
    summary: 'check the handoff history: orphaned notes, lost versions, stale locks, what init set up (--fix repairs them)',
    description:
      "Orphaned notes are notes whose commit is gone or on no branch, tag or remote branch (after a squash or rebase merge done by a hosting server, a force push, a deleted branch and git gc); --fix re-attaches each, as a new version, to the reachable commit with the same patch id (rebase merge) or the same tree (squash merge), and reports what it could not place. A note whose commit is not in this clone may only be waiting for a fetch: while its branch is still known here (a local or remote-tracking branch of that name), or when it records no branch, it is reported as not in this clone (fetch first?) and left alone; otherwise it is re-attached only to a commit made after the note was written. --reattach-missing lifts both. Versions lost to another writer (commits refs/notes/handoff once held, named by its reflog, that it no longer reaches because a native 'git notes add', a forced fetch or an update-ref moved it without a compare-and-swap) are counted; --fix joins them back with one repair commit whose parents are the tip and the lost commits, rewriting no commit and never bringing back what a purge removed. A lock on refs/notes/handoff older than 5 seconds and held by no process was left by a killed writer; --fix removes it. Hooks and config that 'git handoff init' set and that are missing or changed are re-set by --fix. Team and private versions your age identity cannot read are counted and named (a note); --key age1... names those another public key cannot read, decided from the .handoff-recipients of the commit each team version was written on (a private version, encrypted to its writer's own keys, cannot be told and is counted apart). Versions written before lineage (no Handoff-Continues, so \"latest\" falls back to the old order among them) are counted in one line (a note). Two or more heads on the current branch (sessions that diverged) are named, each with what it holds that the latest does not and the write that joins them (a note). Each finding is fixed, fixable (--fix will repair it), a problem (the line says what to do) or a note (nothing to do: a leftover of a local amend, rebase or squash, a note waiting for a fetch, a writer's live lock). Exits 1 while something fixable or a problem is left.",
    options: {
      fix: { type: 'boolean', describe: 'repair what can be repaired safely' },
      'reattach-missing': { type: 'boolean', describe: 'also re-attach notes whose commit is not in this clone, though a fetch might bring it' },
      key: {
        type: 'string',
        arg: 'age1...',
        describe: 'also list the team and private versions this age public key cannot read (decided from what is in the clear)',
      },
      json: JSON_OPTION,
    },
    examples: ['git handoff doctor', 'git handoff doctor --fix', 'git handoff doctor --fix --reattach-missing', 'git handoff doctor --key age1...'],
  },

  async run(args, ctx) {
    const fix = Boolean(args.values.fix);
    const r = await withRepo(ctx.cwd, (repo) =>
      runDoctor(repo, {
        fix,
        reattachMissing: Boolean(args.values['reattach-missing']),
        key: typeof args.values.key === 'string' ? args.values.key : undefined,
      }),
    );
    if (ctx.json) ctx.io.json(doctorJson(r));
    else ctx.io.out(visibleText(renderDoctor(r, fix)));
    return r.healthy ? 0 : 1;
  },
};

export function doctorJson(r: DoctorResult) {
  return {
    ok: true,
    healthy: r.healthy,
    findings: r.findings.map(({ note: _note, group: _group, ...f }) => ({ level: findingLevel({ ...f, note: _note }), ...f })),
  };
}

const HEALTHY = 'healthy: nothing needs fixing';

/** One line per finding: its level (fixed, fixable, problem, note), what it is, and what --fix or the user does. */
export function renderDoctor(r: DoctorResult, fix: boolean): string {
  // the same words in a work tree (where init's setup yields notes) and in a bare repository
  if (!r.findings.length) return `${HEALTHY}\n`;
  const lines: string[] = [];
  const printed = new Set<Finding['group']>();
  // (counted once: 100,000 findings of one group are one pass, not one pass each)
  const alike = new Map<Finding['group'], number>();
  for (const f of r.findings) if (f.group) alike.set(f.group, (alike.get(f.group) ?? 0) + 1);
  for (const f of r.findings) {
    const n = f.group ? alike.get(f.group)! : 1;
    if (n < 2) lines.push(`${findingLevel(f)}: ${f.message} (${f.action})`);
    else if (!printed.has(f.group)) {
      printed.add(f.group);
      lines.push(`${findingLevel(f)}: ${f.group!(n)} (${f.action})`);
    }
  }
  if (!fix && r.findings.some((f) => f.fixable && !f.fixed)) lines.push("run 'git handoff doctor --fix' to repair what can be repaired");
  else if (r.healthy) lines.push(HEALTHY);
  return `${lines.join('\n')}\n`;
}
