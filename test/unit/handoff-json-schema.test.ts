/**
 * The MCP tools' JSON Schemas are generated from the handoff schema (core/schema.ts); this
 * holds the generated schema and the validation `write` does in agreement, field by field.
 */
import { describe, expect, it } from 'vitest';
import { handoffInputSchema, handoffPatchSchema } from '../../src/core/handoff-json-schema.js';
import { normalizeInput, USER_KEYS, NESTED_ORDER, STATUSES, MAX_PENDING_QUESTIONS } from '../../src/core/schema.js';
import { checkArgs } from '../../src/app/mcp/check-args.js';

const schema = handoffInputSchema() as any;

function wrongFor(s: any): unknown {
  if (s.type === 'string') return 42;
  if (s.type === 'array') return 'not a list';
  if (s.type === 'object') return ['not', 'a mapping'];
  if (s.type === 'boolean') return 'yes';
  throw new Error(`no wrong value for ${JSON.stringify(s)}`);
}

describe('handoff JSON Schema', () => {
  it('has every field write accepts, in stored order, with the nested fields', () => {
    expect(Object.keys(schema.properties)).toEqual([...USER_KEYS, 'open_treks']);
    for (const [k, order] of Object.entries(NESTED_ORDER)) {
      const s = k === 'open_tracks' ? schema.properties.open_tracks.items : schema.properties[k];
      expect(Object.keys(s.properties), k).toEqual(order);
    }
    expect(schema.properties.status.enum).toEqual([...STATUSES]);
    expect(schema.properties.cursor.properties.pending_questions.maxItems).toBe(MAX_PENDING_QUESTIONS);
    expect(schema.properties.open_tracks.items.required).toEqual(['name']);
    expect(schema.additionalProperties).toBe(true);
  });

  it('every value of the wrong type for a field is one write refuses', () => {
    for (const k of USER_KEYS) {
      const s = schema.properties[k];
      expect(normalizeInput({ [k]: wrongFor(s) }).problems.length, k).toBeGreaterThan(0);
      if (s.type === 'object') {
        for (const [sub, ss] of Object.entries(s.properties as Record<string, any>)) {
          expect(normalizeInput({ [k]: { [sub]: wrongFor(ss) } }).problems.length, `${k}.${sub}`).toBeGreaterThan(0);
        }
      }
    }
    expect(normalizeInput({ status: 'sleeping' }).problems).toHaveLength(1);
    expect(normalizeInput({ cursor: { pending_questions: ['a', 'b', 'c', 'd'] } }).problems).toHaveLength(1);
    expect(normalizeInput({ work_item: 'nonsense' }).problems).toHaveLength(1);
    expect(new RegExp(schema.properties.work_item.pattern).test('github:o/r#1')).toBe(true);
    expect(normalizeInput({ open_tracks: [{ readiness: 'x' }] }).problems).toHaveLength(1);
  });

  it('the patch schema allows null (remove) for every field', () => {
    const p = handoffPatchSchema() as any;
    for (const k of USER_KEYS) expect(p.properties[k].anyOf[1], k).toEqual({ type: 'null' });
  });
});

describe('checkArgs', () => {
  const tool = {
    type: 'object',
    properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 0 }, order: { type: 'string', enum: ['newest', 'relevance'] } },
    required: ['query'],
    additionalProperties: false,
  };
  it.each([
    [{ query: 'x', limit: 3 }, null],
    [{}, 'query is required'],
    [{ query: 1 }, 'query must be a string, not number'],
    [{ query: 'x', limit: 1.5 }, 'limit must be a whole number, not 1.5'],
    [{ query: 'x', limit: -1 }, 'limit must be at least 0'],
    [{ query: 'x', order: 'random' }, 'order must be one of newest, relevance, not "random"'],
    [{ query: 'x', extra: true }, 'unknown argument "extra"; the arguments are query, limit, order'],
    ['a string', 'the arguments must be an object, not string'],
    [null, 'the arguments must be an object, not null'],
  ])('%j', (args, message) => {
    if (message === null) expect(checkArgs('t', tool, args)).toEqual(args);
    else expect(() => checkArgs('t', tool, args)).toThrow(`t: ${message}`);
  });
});
