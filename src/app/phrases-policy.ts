/**
 * The phrase lists in effect: the built-in ones, replaced list by list by the `phrases`
 * key of the policy file `.harness/session-workflow.yaml` when that file is
 * trusted (its hash approved with `git handoff policy approve`, as for every other use of
 * the policy). Never throws: a problem is one line, and the built-in lists apply.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Repo } from '../git/repo.js';
import { ItemStore } from '../git/item-store.js';
import { loadPolicy, untrustedNotice } from './policy.js';
import { POLICY_PATH } from '../core/policy.js';
import { DEFAULT_PHRASES, phrasesFromPolicy, type PhraseLists } from '../core/phrases.js';

export interface EffectivePhrases {
  lists: PhraseLists;
  /** where the lists came from: the policy path, or null for the built-in lists */
  source: string | null;
  /** one line each; the built-in list is kept where the policy's is unusable */
  problems: string[];
}

export async function loadPhrases(repo: Repo | null): Promise<EffectivePhrases> {
  const builtIn: EffectivePhrases = { lists: DEFAULT_PHRASES, source: null, problems: [] };
  if (!repo?.workTree || !existsSync(join(repo.workTree, POLICY_PATH))) return builtIn;
  let policy;
  try {
    policy = await loadPolicy(repo, new ItemStore(repo));
  } catch (e) {
    return { ...builtIn, problems: [`${(e as Error).message}; using the built-in phrase lists`] };
  }
  if (!policy.trusted) return { ...builtIn, problems: [untrustedNotice(policy)!.replace('the built-in defaults', 'the built-in phrase lists')] };
  if (!policy.effective.phrases) return builtIn;
  const r = phrasesFromPolicy(policy.effective.phrases);
  return { lists: r.lists, source: POLICY_PATH, problems: r.problems.map((p) => `${POLICY_PATH}: ${p}; using the built-in list`) };
}
