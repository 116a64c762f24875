/** A JSON text that must hold an object (a stored record, a config file): pure. */

/** The object `text` holds, or what is wrong with it, as one line for the caller's message. */
export function readJsonObject(text: string): { object: Record<string, unknown> } | { problem: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { problem: `not JSON: ${(e as Error).message}` };
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { problem: 'not a JSON object' };
  return { object: v as Record<string, unknown> };
}
