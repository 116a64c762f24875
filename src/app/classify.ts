/**
 * `classify`: is a message a session end, a task-zone phrase, ambiguous, or none of them,
 * by the phrase lists in effect where it runs (the approved policy's, else the built-in
 * ones; outside a repository always the built-in ones).
 */
import { classifyPhrase, type PhraseClass } from '../core/phrases.js';
import { loadPhrases } from './phrases-policy.js';
import { withRepoIfAny } from './repository.js';

export interface MessageClass {
  class: PhraseClass;
  /** the phrase that decided; null for `none` */
  matched: string | null;
  /** for `none`: a broad farewell the message contains, which is never a trigger */
  farewell: string | null;
  /** one line each: why a list of the policy was not used */
  problems: string[];
}

export async function classifyMessage(cwd: string, text: string): Promise<MessageClass> {
  const phrases = await withRepoIfAny(cwd, (repo) => loadPhrases(repo));
  const r = classifyPhrase(text, phrases.lists);
  // `none` matched nothing that counts: a broad farewell is named as such, never as "matched".
  if (r.class === 'none') return { class: 'none', matched: null, farewell: r.matched, problems: phrases.problems };
  return { class: r.class, matched: r.matched, farewell: null, problems: phrases.problems };
}
