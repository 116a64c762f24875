/**
 * post-rewrite: each handoff stays attached to the rewritten commit as ONE valid handoff, the
 * newest of those the old commits carried (docs/hooks.md). Git already copies notes
 * when `notes.rewriteRef` covers refs/notes/handoff (init sets it, with
 * `notes.rewriteMode=overwrite`); this hook checks the result and writes a version only where
 * git did not (no rewriteRef, a concatenating rewriteMode, a squash whose newest handoff was
 * not the last one picked). Never quiet: it runs while a rebase is still in progress.
 */
import { withRepo } from '../repository.js';
import { VersionReader } from '../../history/reader.js';
import { findNote, setNote } from '../../git/notes-tree.js';
import { newestNote, parseRewriteList, type NoteText } from '../../core/rewrite.js';
import { noteBranch } from '../../core/front-matter.js';
import { healMergedNotes } from '../heal.js';
import { healedLine } from './post-merge.js';
import type { HookContext } from './types.js';
import { branchForTrailer } from '../../core/commit-message.js';
import { carriedNote } from '../carried-note.js';
import { reattachLineage } from '../../core/lineage.js';

export async function run(ctx: HookContext): Promise<number> {
  const groups = parseRewriteList(await ctx.stdin());
  if (!groups.size) return 0;
  return withRepo(ctx.cwd, async (repo) => {
    const reader = new VersionReader(repo);
    const store = reader.store;
    const tip = await store.tip();
    if (!tip) return 0;
    const root = (await store.readCommit(tip)).tree;
    const read = async (target: string): Promise<NoteText | null> => {
      const note = await findNote(repo.objects, root, target);
      const blob = note && (await repo.objects.read(note.blob));
      return blob ? { blob: note!.blob, text: blob.data.toString('utf8') } : null;
    };
    const reattach: {
      target: string;
      olds: string[];
      blob: string;
      branch: string | null | undefined;
      from: string;
      extra: Record<string, string>;
      timestamp: number;
    }[] = [];
    for (const [target, olds] of groups) {
      const carried: NoteText[] = [];
      const carriedFrom: string[] = [];
      for (const old of olds) {
        const n = await read(old);
        if (!n) continue;
        carried.push(n);
        carriedFrom.push(old);
      }
      // The newest by lineage (a session's later handoff may carry an older date: a clock
      // that was fast), by date only among notes no version of ours wrote.
      const newest = carried.length > 1 ? await reader.newestOf(carried.map((n) => n.blob)) : null;
      const want = carried.find((n) => n.blob === newest) ?? newestNote(carried);
      if (!want) continue;
      const have = await read(target);
      if (have?.blob === want.blob) continue;
      // An encrypted note is carried as it is: its branch and visibility are its writer's.
      const facts = await carriedNote(reader, want.blob, want.text, repo.headBranch());
      const branch = branchForTrailer(facts.visibility === 'shared' ? await noteBranch(want.text) : facts.branch);
      // (the commit whose note it carries: a re-attach after a rewrite git did not follow, docs/format.md)
      const from = carriedFrom[carried.indexOf(want)];
      reattach.push({ target, olds, blob: want.blob, branch, from, extra: facts.trailers, timestamp: 0 });
    }
    // Oldest by lineage first, each continuing the version it carries and the re-attach
    // before it on its branch: the rewritten branch keeps one head, the newest.
    const previous = new Map<string | null, string>();
    for (const { item: r, carried } of await reader.reattachOrder(reattach)) {
      const version = await store.commit('version', (tree) => setNote(repo.objects, tree, r.target, r.blob), {
        subject: `handoff ${r.target.slice(0, 7)}: carried over from ${r.olds.map((o) => o.slice(0, 7)).join(', ')} (${ctx.args[0] ?? 'rewrite'})`,
        trailers: {
          'Handoff-Target': r.target,
          ...(r.branch ? { 'Handoff-Branch': r.branch } : {}),
          'Handoff-Reattached-From': r.from,
          ...r.extra,
          ...reattachLineage(carried, previous.get(r.branch ?? null), await reader.headIds(r.branch ?? null)),
        },
      });
      previous.set(r.branch ?? null, version);
    }
    // `git pull --rebase` over a squash or rebase merge done on the forge: the
    // commits it brought are ORIG_HEAD..HEAD; handoffs of the merged branch follow onto them.
    if (ctx.args[0] === 'rebase') {
      for (const h of await healMergedNotes(repo, await repo.resolveRef('ORIG_HEAD'), await repo.headCommit(), { duringRebase: true }))
        ctx.io.err(healedLine(h));
    }
    return 0;
  });
}
