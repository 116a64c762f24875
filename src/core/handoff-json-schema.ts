/**
 * JSON Schemas (draft 2020-12) generated from the handoff schema (core/schema.ts): the
 * field list, order, types and limits `write` validates. Used by the MCP tools, so a
 * client sees the same contract the CLI enforces. Pure.
 */
import { USER_FIELD_TYPES, STATUSES, WORK_ITEM_RE, NESTED_ORDER, type FieldType } from './schema.js';

export type JsonSchema = Record<string, unknown>;

const DESCRIPTIONS: Record<string, string> = {
  session_id: 'the session that wrote it',
  status: 'active (work goes on), paused or done',
  summary: 'where the work stands, key decisions',
  cursor: 'where the conversation stopped',
  soft_context: 'tone and unstated cautions',
  open_tracks: 'open tracks: name, readiness, entry point',
  ask_user: 'decisions waiting for the user',
  guards: '"don\'t do" items',
  memory_updates: 'what durable knowledge changed',
  mid_task: 'work left in the middle (filled from .tasks/STATUS.md when not given)',
  continuation_refs: 'canonical documents to read next',
  consolidation: 'what the fidelity sweep produced',
  work_item: 'github:owner/repo#N or local:#N',
};

function toSchema(t: FieldType, key?: string): JsonSchema {
  if (t === 'string') return { type: 'string' };
  if (t === 'strings') return { type: 'array', items: { type: 'string' } };
  if (t === 'boolean') return { type: 'boolean' };
  if (t === 'status') return { type: 'string', enum: [...STATUSES] };
  if (t === 'work_item') return { type: 'string', pattern: WORK_ITEM_RE.source };
  if ('list' in t) return { type: 'array', items: toSchema(t.list), ...(t.maxItems !== undefined ? { maxItems: t.maxItems } : {}) };
  const order = (key && NESTED_ORDER[key]) || Object.keys(t.object);
  const properties: JsonSchema = {};
  for (const k of order) if (t.object[k]) properties[k] = toSchema(t.object[k]);
  // unknown keys are kept and round-trip untouched (docs/format.md "The note")
  return { type: 'object', properties, ...(t.required ? { required: t.required } : {}), additionalProperties: true };
}

/** The handoff a user writes: every known field, unknown fields allowed. */
export function handoffInputSchema(): JsonSchema {
  const properties: JsonSchema = {};
  for (const [k, t] of Object.entries(USER_FIELD_TYPES)) {
    properties[k] = { ...toSchema(t, k), description: DESCRIPTIONS[k] };
  }
  properties.open_treks = { ...toSchema(USER_FIELD_TYPES.open_tracks), description: 'alias of open_tracks (the source design spelling)' };
  return { type: 'object', properties, additionalProperties: true };
}

/** A patch of the latest handoff (`write --patch`): the same fields, each also `null` (empty it). */
export function handoffPatchSchema(): JsonSchema {
  const base = handoffInputSchema();
  const properties: JsonSchema = {};
  for (const [k, s] of Object.entries(base.properties as Record<string, JsonSchema>)) {
    properties[k] = { anyOf: [s, { type: 'null' }], description: s.description };
  }
  return {
    type: 'object',
    properties,
    additionalProperties: true,
    description:
      'changes to the latest version: the fields given replace theirs; cursor, soft_context and consolidation merge key by key; null empties a field',
  };
}
