/**
 * Checks a tool call's arguments against the tool's JSON Schema (the subset our schemas
 * use: object/properties/required/additionalProperties, string/integer/boolean/array,
 * enum, pattern, minimum, maxItems, anyOf, null). The handoff inside `handoff`/`patch` is
 * checked only for being a mapping here: `write` validates it fully, as for the CLI. Pure.
 */
import { UsageError } from '../../errors.js';
import type { JsonSchema } from '../../core/handoff-json-schema.js';

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function problem(v: unknown, s: JsonSchema, path: string, depth: number): string | null {
  if (Array.isArray(s.anyOf)) {
    const all = (s.anyOf as JsonSchema[]).map((x) => problem(v, x, path, depth));
    return all.every(Boolean) ? all[0] : null;
  }
  const t = s.type;
  if (t === 'null') return v === null ? null : `${path} must be null, not ${typeName(v)}`;
  if (t === 'string') {
    if (typeof v !== 'string') return `${path} must be a string, not ${typeName(v)}`;
    if (Array.isArray(s.enum) && !s.enum.includes(v)) return `${path} must be one of ${(s.enum as string[]).join(', ')}, not ${JSON.stringify(v)}`;
    return null;
  }
  if (t === 'integer') {
    if (typeof v !== 'number' || !Number.isInteger(v)) return `${path} must be a whole number, not ${typeName(v) === 'number' ? v : typeName(v)}`;
    if (typeof s.minimum === 'number' && v < s.minimum) return `${path} must be at least ${s.minimum}`;
    return null;
  }
  if (t === 'boolean') return typeof v === 'boolean' ? null : `${path} must be true or false, not ${typeName(v)}`;
  if (t === 'array') return Array.isArray(v) ? null : `${path} must be a list, not ${typeName(v)}`;
  if (t === 'object') {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return `${path} must be an object, not ${typeName(v)}`;
    // Below the tool's own arguments the handoff schema applies, and write checks that itself.
    if (depth > 0) return null;
    const props = (s.properties ?? {}) as Record<string, JsonSchema>;
    for (const r of (s.required as string[] | undefined) ?? []) if (!(r in v)) return `${path ? `${path}.` : ''}${r} is required`;
    for (const [k, x] of Object.entries(v)) {
      const ps = props[k];
      if (!ps) {
        if (s.additionalProperties === false) return `unknown argument ${JSON.stringify(k)}; the arguments are ${Object.keys(props).join(', ') || 'none'}`;
        continue;
      }
      if (x === undefined) continue;
      const p = problem(x, ps, path ? `${path}.${k}` : k, depth + 1);
      if (p) return p;
    }
    return null;
  }
  return null;
}

/** The arguments as a plain object, or a UsageError naming the first problem. */
export function checkArgs(tool: string, schema: JsonSchema, args: unknown): Record<string, unknown> {
  const p = problem(args, schema, '', 0);
  if (p) throw new UsageError(`${tool}: ${p.startsWith(' must') ? `the arguments${p}` : p}`);
  return args as Record<string, unknown>;
}
