/**
 * Judging one `name <op> value` candidate (src/core/secret-assignments.ts finds them): is the
 * name a credential's, and does the value look like a real one rather than code, a label or
 * an example? Pure.
 */
import { credentialName, nameWords, type Assignment } from './secret-assignments.js';
import { notASecret } from './secret-values.js';

/** What an allow pattern is matched against besides the value: the name, the operator and the value. */
export function assignmentContext(line: string, a: Assignment): string {
  return line.slice(Math.max(0, a.index - a.name.length - 8), a.index + a.value.length + 1);
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const THREE_SMALL = /[a-z]{3}/;
const SMALL = /[a-z]/;
const LONG_TOKEN = /^(?=[^\d]*\d)[A-Za-z0-9+/_-]{32,}={0,2}$/;

/** Unquoted `Ed25519.BlindKeySignatures`, `settings.tokenValue`: a reference in code. */
function isCodeLike(v: string): boolean {
  const parts = v.split('.');
  return parts.length > 1 && parts.every((p) => IDENTIFIER.test(p)) && parts.some((p) => THREE_SMALL.test(p));
}

/** `Key_Meshing = "id-Key-Meshing"`: a value spelling out the name is a label, not a credential. */
function echoesName(nameWordList: string[], value: string): boolean {
  const vw = nameWords(value).filter((w) => w.length >= 3 && SMALL.test(w));
  const nw = new Set(nameWordList);
  const shared = vw.filter((w) => nw.has(w)).length;
  return shared >= 2 && shared * 2 >= vw.length;
}

/** The credential word when `a` assigns a real-looking value to a credential-named field. */
export function judgeAssignment(a: Assignment, nameWordList: string[]): string | null {
  const { strength, word } = credentialName(a.name, nameWordList);
  if (!strength) return null;
  // In prose a key (a weak name alone: `my api key is ...`) counts only with a long token
  // for a value: 32 and more of the token alphabet, digits among them (`the key is deadbeef` passes).
  if (a.op === 'prose' && strength !== 'strong' && !LONG_TOKEN.test(a.value)) return null;
  if (a.op !== 'prose' && !a.quoted && isCodeLike(a.value)) return null;
  if (echoesName(nameWordList, a.value)) return null;
  return notASecret(a.value, a.op === 'prose' ? 'prose' : strength) ? null : word;
}
