/**
 * The scanner's uses beyond one scan (src/core/secrets.ts scans one text): masking what it
 * finds, the allow list, every string of a handoff named by its field.
 */
import { escapeRe, scanText, type SecretHit } from './secrets.js';

const MASK = '********';

/**
 * Hides a secret: a public prefix may stay (`ghp_********`), nothing else of the value
 * shows, not even its length.
 */
export function mask(value: string, keep = 0): string {
  return `${value.slice(0, keep)}${MASK}`;
}

/** Replaces every secret in `text` by its mask (for tool-filled fields such as commit subjects). */
export function maskSecrets(text: string, allow: RegExp[] = []): string {
  const hits = scanText(text, allow);
  let out = text;
  for (const h of [...hits].reverse()) out = out.slice(0, h.index) + mask(h.value, h.keep) + out.slice(h.index + h.value.length);
  return out;
}

/** Compiles `handoff.secrets.allow` values; an invalid pattern matches itself literally. */
export function compileAllow(patterns: string[]): RegExp[] {
  return patterns.map((p) => {
    try {
      return new RegExp(p);
    } catch {
      return new RegExp(escapeRe(p));
    }
  });
}

export interface FieldSecret extends SecretHit {
  field: string;
}

/** Scans every string of a (user-given) handoff, naming the field of each hit. */
export function scanFields(value: unknown, allow: RegExp[] = [], field = ''): FieldSecret[] {
  if (typeof value === 'string') return scanText(value, allow).map((h) => ({ ...h, field: field || '(value)' }));
  if (Array.isArray(value)) return value.flatMap((v, i) => scanFields(v, allow, `${field}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [
      ...scanText(k, allow).map((h) => ({ ...h, field: field ? `${field}.${k}` : k })),
      ...scanFields(v, allow, field ? `${field}.${k}` : k),
    ]);
  }
  return [];
}

/**
 * The secrets in a bookkeeping record's text (a receipt, an item record, a policy file): a
 * JSON record value by value and key by key, as a note's fields (the tool's own keys, such as
 * `authorization`, are no credential assignment); any other text as text.
 */
export function scanRecord(text: string, allow: RegExp[] = []): FieldSecret[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return scanText(text, allow).map((h) => ({ ...h, field: '(record)' }));
  }
  return scanFields(value, allow);
}
