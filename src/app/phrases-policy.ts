/**
 * The phrase lists in effect: the built-in ones, replaced list by list by the `phrases`
 * key of the policy file `.harness/session-workflow.yaml` (issue 5). Only that key is read
 * here; js-yaml loads only when the file exists.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_PHRASES, phrasesFromPolicy, type PhraseLists } from '../core/phrases.js';
import { parseDocument } from '../core/parse.js';

export const POLICY_PATH = '.harness/session-workflow.yaml';

export interface EffectivePhrases {
  lists: PhraseLists;
  /** where the lists came from: the policy path, or null for the built-in lists */
  source: string | null;
  /** one line each; the built-in list is kept where the policy's is unusable */
  problems: string[];
}

export async function loadPhrases(workTree: string | null): Promise<EffectivePhrases> {
  const builtIn: EffectivePhrases = { lists: DEFAULT_PHRASES, source: null, problems: [] };
  if (!workTree) return builtIn;
  let text: string;
  try {
    text = readFileSync(join(workTree, POLICY_PATH), 'utf8');
  } catch {
    return builtIn;
  }
  let doc: unknown;
  try {
    doc = await parseDocument(text);
  } catch (e) {
    return { ...builtIn, problems: [`${POLICY_PATH}: ${(e as Error).message}; using the built-in phrase lists`] };
  }
  const phrases = doc && typeof doc === 'object' && !Array.isArray(doc) ? (doc as Record<string, unknown>).phrases : undefined;
  if (phrases === undefined) return builtIn;
  const r = phrasesFromPolicy(phrases);
  return { lists: r.lists, source: POLICY_PATH, problems: r.problems.map((p) => `${POLICY_PATH}: ${p}; using the built-in list`) };
}
