import { describe, expect, it } from 'vitest';
import { checkStored, normalizeInput, userContent, withDefaults, KEY_ORDER, type Handoff } from '../../src/core/schema.js';
import { parseDocument, ParseError } from '../../src/core/parse.js';
import { toCanonicalYaml } from '../../src/core/canonical.js';

const fields = (input: unknown) => normalizeInput(input).problems.map((p) => p.field);
const messages = (input: unknown) => normalizeInput(input).problems.map(String);

describe('normalizeInput refuses, naming the field', () => {
  it.each([
    ['a number summary', { summary: 42 }, 'summary', /must be a string, not a number/],
    ['a list summary', { summary: ['a'] }, 'summary', /not a list/],
    ['a mapping session_id', { session_id: { a: 1 } }, 'session_id', /not a mapping/],
    ['a string cursor', { cursor: 'here' }, 'cursor', /must be a mapping, not a string/],
    ['a number last_discussed', { cursor: { last_discussed: 3 } }, 'cursor.last_discussed', /must be a string/],
    ['a string pending_questions', { cursor: { pending_questions: 'why?' } }, 'cursor.pending_questions', /list of strings/],
    ['a number inside pending_questions', { cursor: { pending_questions: ['ok', 7] } }, 'cursor.pending_questions[1]', /must be a string, not a number/],
    ['a bool next_step', { cursor: { next_step: true } }, 'cursor.next_step', /not a boolean/],
    ['a list soft_context', { soft_context: [] }, 'soft_context', /must be a mapping, not a list/],
    ['a number tone', { soft_context: { tone: 1 } }, 'soft_context.tone', /must be a string/],
    ['a string notes', { soft_context: { notes: 'careful' } }, 'soft_context.notes', /list of strings/],
    ['a mapping open_tracks', { open_tracks: { name: 'x' } }, 'open_tracks', /must be a list/],
    ['a string open track', { open_tracks: ['parser'] }, 'open_tracks[0]', /must be a mapping/],
    ['an open track without name', { open_tracks: [{ readiness: 'ready' }] }, 'open_tracks[0].name', /is required/],
    ['a number entry_point', { open_tracks: [{ name: 'a', entry_point: 5 }] }, 'open_tracks[0].entry_point', /must be a string/],
    ['a string ask_user', { ask_user: 'decide' }, 'ask_user', /list of strings/],
    ['a mapping in guards', { guards: [{ no: 'push' }] }, 'guards[0]', /not a mapping/],
    ['a number memory_updates', { memory_updates: 1 }, 'memory_updates', /list of strings/],
    ['a string mid_task', { mid_task: 'half' }, 'mid_task', /must be a mapping/],
    ['a number mid_task.slug', { mid_task: { slug: 1, where_stopped: 'x' } }, 'mid_task.slug', /must be a string/],
    ['a string continuation_refs', { continuation_refs: 'docs/a.md' }, 'continuation_refs', /list of strings/],
    ['a string consolidation.triggered', { consolidation: { triggered: 'yes', produced: [] } }, 'consolidation.triggered', /true or false/],
    ['a string consolidation.produced', { consolidation: { produced: 'a.md' } }, 'consolidation.produced', /list of strings/],
    ['a malformed work_item', { work_item: 'issue 12' }, 'work_item', /github:owner\/repo#N or local:#N/],
    ['a number work_item', { work_item: 12 }, 'work_item', /must be a string/],
    ['schema 2', { schema: 2 }, 'schema', /unsupported schema 2/],
    ['a number branch', { branch: 3 }, 'branch', /must be a string/],
    ['a list content_hashes', { content_hashes: ['a'] }, 'content_hashes', /must be a mapping/],
    ['a number content hash', { content_hashes: { 'a.md': 1 } }, 'content_hashes.a.md', /must be a string/],
  ])('%s', (_name, input, field, message) => {
    const { problems } = normalizeInput(input);
    expect(problems.map((p) => p.field)).toContain(field);
    expect(problems.find((p) => p.field === field)!.message).toMatch(message);
  });

  it.each([['paused'], ['active'], ['done']])('accepts status %s', (status) => {
    expect(normalizeInput({ status }).problems).toEqual([]);
    expect(normalizeInput({ status }).handoff.status).toBe(status);
  });

  it.each([['finished'], ['Active'], [''], [1], [null], [['active']]])('refuses status %j', (status) => {
    expect(fields({ status })).toEqual(['status']);
    expect(messages({ status })[0]).toMatch(/status: must be one of active, paused, done/);
  });

  it('allows 0 to 3 pending questions and refuses 4', () => {
    for (const n of [0, 1, 2, 3]) {
      const qs = Array.from({ length: n }, (_, i) => `q${i}?`);
      expect(normalizeInput({ cursor: { pending_questions: qs } }).problems).toEqual([]);
    }
    const four = { cursor: { pending_questions: ['a?', 'b?', 'c?', 'd?'] } };
    expect(messages(four)).toEqual(['cursor.pending_questions: has 4 items; at most 3 are allowed']);
  });

  it.each([
    ['a list', ['summary: x'], /must be a mapping, not a list/],
    ['a string', 'just text', /must be a mapping, not a string/],
    ['a number', 12, /not a number/],
    ['null (an empty document)', null, /not null/],
  ])('refuses a document that is %s', (_n, input, message) => {
    const r = normalizeInput(input);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0].field).toBe('(document)');
    expect(r.problems[0].message).toMatch(message);
  });

  it('reports every problem, not just the first', () => {
    expect(fields({ summary: 1, status: 'x', guards: 'g' })).toEqual(['status', 'summary', 'guards']);
  });
});

describe('normalizeInput accepts and normalizes', () => {
  it('takes open_treks as open_tracks', () => {
    const r = normalizeInput({ summary: 's', open_treks: [{ name: 'parser', readiness: 'ready', entry_point: 'src/p.ts' }] });
    expect(r.problems).toEqual([]);
    expect(r.handoff.open_tracks).toEqual([{ name: 'parser', readiness: 'ready', entry_point: 'src/p.ts' }]);
    expect('open_treks' in r.handoff).toBe(false);
  });

  it('refuses open_treks and open_tracks together', () => {
    expect(fields({ open_treks: [], open_tracks: [] })).toEqual(['open_treks']);
  });

  it('keeps unknown fields, top-level and nested, after the known ones in input order', () => {
    const r = normalizeInput({ zeta: 1, summary: 's', alpha: { deep: [1, 'two'] }, cursor: { mood: 'ok', next_step: 'n' } });
    expect(r.problems).toEqual([]);
    expect(Object.keys(r.handoff)).toEqual(['summary', 'cursor', 'zeta', 'alpha']);
    expect(r.handoff.alpha).toEqual({ deep: [1, 'two'] });
    expect(Object.keys(r.handoff.cursor!)).toEqual(['next_step', 'mood']);
  });

  it('orders known keys as the schema table, whatever the input order', () => {
    const r = normalizeInput({ guards: [], summary: 's', status: 'done', session_id: 'x', cursor: { next_step: 'n', last_discussed: 'l' } });
    expect(Object.keys(r.handoff)).toEqual(['session_id', 'status', 'summary', 'cursor', 'guards']);
    expect(Object.keys(r.handoff.cursor!)).toEqual(['last_discussed', 'next_step']);
  });

  it('keeps empty lists as [] and turns null lists into []', () => {
    const r = normalizeInput({ guards: [], ask_user: null, cursor: { pending_questions: [] } });
    expect(r.handoff.guards).toEqual([]);
    expect(r.handoff.ask_user).toEqual([]);
    expect(r.handoff.cursor!.pending_questions).toEqual([]);
  });

  it('derives consolidation.triggered from produced', () => {
    expect(normalizeInput({ consolidation: { triggered: false, produced: ['docs/a.md'] } }).handoff.consolidation).toEqual({
      triggered: true,
      produced: ['docs/a.md'],
    });
    expect(normalizeInput({ consolidation: { triggered: true, produced: [] } }).handoff.consolidation).toEqual({ triggered: false, produced: [] });
  });

  it.each([['github:acme/widgets#12'], ['local:#3'], ['github:a.b/c_d-e#1']])('accepts work_item %s', (wi) => {
    expect(normalizeInput({ work_item: wi }).problems).toEqual([]);
  });
});

describe('withDefaults and userContent', () => {
  it('fills every list and section so that nothing reads as forgotten', () => {
    const h = withDefaults({ summary: 's' });
    expect(h).toMatchObject({
      schema: 1,
      status: 'active',
      cursor: { last_discussed: '', pending_questions: [], next_step: '' },
      soft_context: { tone: '', notes: [] },
      open_tracks: [],
      ask_user: [],
      guards: [],
      memory_updates: [],
      continuation_refs: [],
      consolidation: { triggered: false, produced: [] },
    });
    const keys = Object.keys(h);
    expect(keys).toEqual(KEY_ORDER.filter((k) => keys.includes(k)));
    const yaml = toCanonicalYaml(h as Record<string, unknown>);
    expect(yaml).toContain('guards: []\n');
    expect(yaml).toContain('  pending_questions: []\n');
  });

  it('strips the tool-filled fields and schema', () => {
    const h: Handoff = {
      schema: 1,
      summary: 's',
      date: 'd',
      branch: null,
      head: 'h',
      head_tree: 't',
      head_patch_id: null,
      recent_commits: [],
      content_hashes: {},
      extra: 1,
    };
    expect(userContent(h)).toEqual({ summary: 's', extra: 1 });
  });
});

describe('checkStored (notes read back)', () => {
  it('accepts a note written by another tool: known fields right, tool fields absent', () => {
    const r = checkStored({ summary: 'by hand', guards: ['x'], custom: true });
    expect(r.problems).toEqual([]);
    expect(r.handoff).toEqual({ summary: 'by hand', guards: ['x'], custom: true });
  });

  it('does not apply write-only limits to stored notes', () => {
    expect(checkStored({ cursor: { pending_questions: ['a', 'b', 'c', 'd'] } }).problems).toEqual([]);
    expect(checkStored({ work_item: 'whatever' }).problems).toEqual([]);
  });

  it('marks a note with wrong types invalid, naming the field', () => {
    expect(checkStored({ summary: ['x'] }).problems.map(String)).toEqual(['summary: must be a string, not a list']);
    expect(checkStored({ status: 'finished' }).problems.map((p) => p.field)).toEqual(['status']);
  });

  it('keeps branch null (detached) and accepts tool-filled fields', () => {
    const r = checkStored({ schema: 1, branch: null, head: 'abc', recent_commits: ['abc: x'], content_hashes: { 'a.md': 'f'.repeat(40) } });
    expect(r.problems).toEqual([]);
    expect(r.handoff.branch).toBeNull();
  });

  it.each([
    ['a string', 'plain text note'],
    ['a list', [1]],
    ['null', null],
  ])('refuses a note that is %s', (_n, v) => {
    const r = checkStored(v);
    expect(r.problems.map((p) => p.field)).toEqual(['(note)']);
    expect(String(r.problems[0])).toMatch(/is not a YAML mapping/);
  });

  it('reads open_treks in stored notes too', () => {
    expect(checkStored({ open_treks: [{ name: 'a' }] }).handoff.open_tracks).toEqual([{ name: 'a' }]);
  });
});

describe('parseDocument', () => {
  it('reads YAML and JSON alike', async () => {
    expect(await parseDocument('summary: s\nguards: [a, b]\n')).toEqual({ summary: 's', guards: ['a', 'b'] });
    expect(await parseDocument('{"summary": "s", "guards": ["a", "b"]}')).toEqual({ summary: 's', guards: ['a', 'b'] });
    // YAML flow mappings start like JSON but are YAML
    expect(await parseDocument('{summary: s, guards: [a]}')).toEqual({ summary: 's', guards: ['a'] });
  });

  it('uses the core schema: no dates, no custom tags', async () => {
    expect(await parseDocument('date: 2026-01-01\nyes: no\n')).toEqual({ date: '2026-01-01', yes: 'no' });
    await expect(parseDocument('a: !!js/function "x"\n')).rejects.toBeInstanceOf(ParseError);
  });

  it.each([
    ['an unclosed flow list', 'summary: s\nguards: [a, b\nstatus: active\n', null],
    ['a bad indentation', 'summary: s\ncursor:\n  next_step: a\n bad: b\n', 4],
    ['a tab indentation', 'summary: s\ncursor:\n\tnext_step: a\n', 3],
    ['a duplicate key', 'summary: a\nstatus: active\nsummary: b\n', 3],
  ])('refuses YAML with %s, naming its line', async (_n, text, line) => {
    const e = await parseDocument(text).then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(ParseError);
    const pe = e as ParseError;
    expect(pe.message).toMatch(/^invalid YAML at line \d+: /);
    expect(pe.line).toBeGreaterThan(0);
    if (line !== null) expect(pe.line).toBe(line);
    expect(pe.message).toContain(`line ${pe.line}`);
  });

  it('refuses invalid JSON with its line', async () => {
    const e = (await parseDocument('{\n  "summary": "s",\n  "guards": [1,,2]\n}').catch((x) => x)) as ParseError;
    expect(e).toBeInstanceOf(ParseError);
    expect(e.line).toBe(3);
    expect(e.message).toMatch(/^invalid (JSON|YAML) at line 3/);
  });

  it('refuses more than one document', async () => {
    await expect(parseDocument('summary: a\n---\nsummary: b\n')).rejects.toThrow(/more than one document/);
  });

  it('refuses nested aliases that would expand a small text past the size limit (billion laughs)', async () => {
    const levels = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
    let text = `summary: s\nx_a: &a [${Array(10).fill('xxxxxxxxxx').join(', ')}]\n`;
    for (let i = 1; i < levels.length; i++)
      text += `x_${levels[i]}: &${levels[i]} [${Array(10)
        .fill(`*${levels[i - 1]}`)
        .join(', ')}]\n`;
    expect(text.length).toBeLessThan(1000);
    const started = Date.now();
    await expect(parseDocument(text)).rejects.toThrow(/^invalid YAML: its aliases expand it past \d+ bytes$/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it.each([
    ['JSON', (n: number) => `{"summary": "s", "x": ${'['.repeat(n)}${']'.repeat(n)}}`],
    ['YAML flow', (n: number) => `summary: s\nx: ${'['.repeat(n)}${']'.repeat(n)}\n`],
    ['YAML blocks', (n: number) => `summary: s\nx:\n${Array.from({ length: n }, (_, i) => `${' '.repeat(i + 1)}- `).join('\n')}\n`],
  ])('refuses %s nested past the depth limit, however deep', async (_kind, make) => {
    expect(await parseDocument(make(60))).toMatchObject({ summary: 's' });
    for (const n of [70, 200_000]) {
      const e = await parseDocument(make(Math.min(n, _kind === 'YAML blocks' ? 1200 : n))).then(
        () => null,
        (x: unknown) => x,
      );
      expect(e).toBeInstanceOf(ParseError);
      expect((e as Error).message).toMatch(/^invalid (document|YAML)\b/);
    }
  });

  it('keeps ordinary anchors and aliases', async () => {
    expect(await parseDocument('guards: &g [no force push]\nx_again: *g\n')).toEqual({ guards: ['no force push'], x_again: ['no force push'] });
  });

  it('reads an empty document as null', async () => {
    expect(await parseDocument('')).toBeNull();
    expect(await parseDocument('# only a comment\n')).toBeNull();
  });
});
