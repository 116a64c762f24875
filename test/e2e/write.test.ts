import { beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo } from '../helpers/repo.js';
import { handoff, type CliResult } from '../helpers/cli.js';
import { FakeSecrets } from '../helpers/fake-secrets.js';
import { yamlBomb } from '../helpers/documents.js';

const iso = (epoch: number) => new Date(epoch * 1000).toISOString().replace('.000Z', 'Z');

/** A refusal: exit 1, one line on stderr naming the problem, no stack trace, nothing on stdout. */
function expectRefused(r: CliResult, message: RegExp): void {
  expect(r.code, r.stderr).toBe(1);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^git handoff: /);
  expect(lines[0]).toMatch(message);
  expect(r.stderr).not.toMatch(/^\s+at /m);
}

const FULL = `session_id: sess-1
status: paused
summary: |
  Parser done; CLI wiring next.
  Decided: util.parseArgs, not yargs.
cursor:
  last_discussed: how quoted fields are escaped
  pending_questions:
    - Follow RFC 4180 exactly?
  next_step: write the e2e tests
soft_context:
  tone: terse
  notes: [the user prefers small commits]
open_treks:
  - name: parser
    readiness: ready
    entry_point: src/parse.ts
ask_user: []
guards:
  - don't force-push main
memory_updates: []
mid_task:
  slug: quoting
  where_stopped: half of the escape cases
continuation_refs: [docs/parser.md]
work_item: local:#3
x_custom:
  kept: [1, two]
`;

describe('write: input, tool-filled fields, native readers', () => {
  let repo: TestRepo;
  beforeAll(() => {
    repo = TestRepo.init();
    repo.commit('feat: first', { 'a.txt': 'a\n' });
    repo.commit('feat: parser', { 'src/parse.ts': 'export {}\n', 'cadence/_INDEX.md': '# index\n' });
    repo.git('config', 'handoff.hashPaths', 'a.txt docs/absent.md');
  });

  it('stores YAML from stdin as canonical YAML with the tool-filled fields, read back by native git', () => {
    const w = handoff(repo, ['write', '--json'], { input: FULL });
    const at = repo.clock;
    expect(w.code, w.stderr).toBe(0);
    const head = repo.head();
    const note = repo.nativeNote()!;
    const h = w.json.handoff;
    expect(Object.keys(w.json)).toEqual(['ok', 'version', 'target', 'unchanged', 'visibility', 'changes', 'handoff']);
    expect(w.json).toMatchObject({ ok: true, target: head, unchanged: false });
    expect(w.json.version).toBe(repo.notesRef());
    const patch = repo.gitRaw(['patch-id', '--stable'], { input: repo.git('diff-tree', '-p', 'HEAD~1', 'HEAD') }).stdout.split(' ')[0];
    expect(h).toEqual({
      schema: 1,
      session_id: 'sess-1',
      status: 'paused',
      summary: 'Parser done; CLI wiring next.\nDecided: util.parseArgs, not yargs.\n',
      cursor: { last_discussed: 'how quoted fields are escaped', pending_questions: ['Follow RFC 4180 exactly?'], next_step: 'write the e2e tests' },
      soft_context: { tone: 'terse', notes: ['the user prefers small commits'] },
      open_tracks: [{ name: 'parser', readiness: 'ready', entry_point: 'src/parse.ts' }],
      ask_user: [],
      guards: ["don't force-push main"],
      memory_updates: [],
      mid_task: { slug: 'quoting', where_stopped: 'half of the escape cases' },
      continuation_refs: ['docs/parser.md'],
      consolidation: { triggered: false, produced: [] },
      work_item: 'local:#3',
      date: iso(at),
      branch: 'main',
      head,
      head_tree: repo.git('rev-parse', 'HEAD^{tree}').trim(),
      head_patch_id: patch,
      recent_commits: [`${head.slice(0, 7)}: feat: parser`, `${repo.git('rev-parse', '--short=7', 'HEAD~1').trim()}: feat: first`],
      content_hashes: {
        'cadence/_INDEX.md': repo.git('hash-object', 'cadence/_INDEX.md').trim(),
        'a.txt': repo.git('hash-object', 'a.txt').trim(),
      },
      x_custom: { kept: [1, 'two'] },
    });
    // keys in schema order, unknown keys last; empty lists kept as []; LF and a trailing newline
    expect(
      note
        .split('\n')
        .filter((l) => /^\S/.test(l))
        .map((l) => l.split(':')[0]),
    ).toEqual(Object.keys(h));
    expect(note).toContain('ask_user: []\n');
    expect(note).toContain('memory_updates: []\n');
    expect(note).not.toContain('open_treks');
    expect(note.endsWith('\n') && !note.includes('\r')).toBe(true);
    // the version commit, its trailers and its reflog entry
    const msg = repo.git('log', '-1', '--format=%B', 'refs/notes/handoff');
    expect(msg).toContain('Handoff-Kind: version\n');
    expect(msg).toContain(`Handoff-Target: ${head}\n`);
    expect(repo.git('reflog', 'show', '--format=%H %gs', 'refs/notes/handoff').trim()).toBe(`${w.json.version} handoff: version`);
    expect(repo.git('log', '--notes=handoff', '-1', '--format=%N')).toContain('summary: |\n  Parser done');
  });

  it('takes the same content as JSON and says "unchanged", appending nothing', () => {
    const before = repo.notesRef();
    const asJson = JSON.stringify({
      x_custom: { kept: [1, 'two'] },
      work_item: 'local:#3',
      continuation_refs: ['docs/parser.md'],
      mid_task: { where_stopped: 'half of the escape cases', slug: 'quoting' },
      memory_updates: [],
      guards: ["don't force-push main"],
      ask_user: [],
      open_tracks: [{ name: 'parser', readiness: 'ready', entry_point: 'src/parse.ts' }],
      soft_context: { tone: 'terse', notes: ['the user prefers small commits'] },
      cursor: { last_discussed: 'how quoted fields are escaped', pending_questions: ['Follow RFC 4180 exactly?'], next_step: 'write the e2e tests' },
      summary: 'Parser done; CLI wiring next.\nDecided: util.parseArgs, not yargs.\n',
      status: 'paused',
      session_id: 'sess-1',
    });
    const w = handoff(repo, ['write', '--json'], { input: asJson });
    expect(w.code, w.stderr).toBe(0);
    expect(w.json).toMatchObject({ ok: true, version: before, unchanged: true });
    expect(repo.notesRef()).toBe(before);
    const again = handoff(repo, ['write'], { input: FULL });
    expect(again.stdout).toMatch(/^unchanged: version [0-9a-f]{12} already holds this handoff for [0-9a-f]{7}\n$/);
    expect(repo.notesRef()).toBe(before);
    expect(repo.git('rev-list', '--count', 'refs/notes/handoff').trim()).toBe('1');
  });

  it('patches the latest version with flags alone', () => {
    const before = repo.notesRef();
    const w = handoff(repo, ['write', '--json', '--next-step', 'ship it', '--status', 'active', '--pending-question', 'a?', '--pending-question', 'b?']);
    expect(w.code, w.stderr).toBe(0);
    expect(w.json.unchanged).toBe(false);
    const h = w.json.handoff;
    expect(h.cursor).toEqual({ last_discussed: 'how quoted fields are escaped', pending_questions: ['a?', 'b?'], next_step: 'ship it' });
    expect(h.status).toBe('active');
    expect(h.summary).toBe('Parser done; CLI wiring next.\nDecided: util.parseArgs, not yargs.\n');
    expect(h.guards).toEqual(["don't force-push main"]);
    expect(h.x_custom).toEqual({ kept: [1, 'two'] });
    expect(repo.git('rev-parse', 'refs/notes/handoff~1').trim()).toBe(before);
    // the same flags again: nothing new
    const same = handoff(repo, ['write', '--json', '--next-step', 'ship it']);
    expect(same.json).toMatchObject({ unchanged: true, version: w.json.version });
  });

  it('sets every field a flag names', () => {
    const w = handoff(repo, [
      'write',
      '--json',
      '--session',
      'flag-session',
      '--last-discussed',
      'flags',
      '--guard',
      'g1',
      '--guard',
      'g2',
      '--ask-user',
      'merge?',
      '--work-item',
      'github:acme/widgets#7',
      '--produced',
      'docs/a.md',
    ]);
    expect(w.code, w.stderr).toBe(0);
    expect(w.json.handoff).toMatchObject({
      session_id: 'flag-session',
      cursor: { last_discussed: 'flags' },
      guards: ['g1', 'g2'],
      ask_user: ['merge?'],
      work_item: 'github:acme/widgets#7',
      consolidation: { triggered: true, produced: ['docs/a.md'] },
    });
  });

  it('lets flags override what stdin gives', () => {
    const w = handoff(repo, ['write', '--json', '--summary', 'from the flag', '--tone', 'calm'], { input: 'summary: from stdin\nguards: [g]\n' });
    expect(w.code, w.stderr).toBe(0);
    expect(w.json.handoff).toMatchObject({ summary: 'from the flag', guards: ['g'], soft_context: { tone: 'calm', notes: [] } });
    // stdin gives the whole handoff: what it leaves out is not carried forward
    expect(w.json.handoff.mid_task).toBeUndefined();
    expect(w.json.handoff.session_id).toBeUndefined();
  });

  it('reads --file relative to the current folder, and --file - from stdin', () => {
    const sub = join(repo.dir, 'src');
    writeFileSync(join(sub, 'h.json'), '{"summary": "from a file", "guards": []}');
    const f = handoff(repo, ['write', '--json', '--file', 'h.json'], { cwd: sub, input: 'summary: stdin is ignored when --file is given\n' });
    expect(f.code, f.stderr).toBe(0);
    expect(f.json.handoff.summary).toBe('from a file');
    const dash = handoff(repo, ['write', '--json', '-f', '-'], { input: 'summary: through --file -\n' });
    expect(dash.code, dash.stderr).toBe(0);
    expect(dash.json.handoff.summary).toBe('through --file -');
    expectRefused(handoff(repo, ['write', '--file', 'nope.yaml']), /cannot read nope\.yaml: no such file/);
    writeFileSync(join(repo.dir, 'empty.yaml'), '');
    expectRefused(handoff(repo, ['write', '--file', 'empty.yaml']), /empty\.yaml is empty/);
  });

  it('takes session_id from HANDOFF_SESSION_ID when the input has none', () => {
    const w = handoff(repo, ['write', '--json', '--summary', 'env session'], { env: { HANDOFF_SESSION_ID: 'env-7' } });
    expect(w.json.handoff.session_id).toBe('env-7');
    const given = handoff(repo, ['write', '--json'], { input: 'summary: s\nsession_id: mine\n', env: { HANDOFF_SESSION_ID: 'env-7' } });
    expect(given.json.handoff.session_id).toBe('mine');
  });

  it('appends a new version for the same content once HEAD moved', () => {
    const prev = handoff(repo, ['log', '--json', '-n', '1']).json.versions[0].version;
    const head = repo.commit('feat: more');
    const status = handoff(repo, ['show', '--json']).json.handoff.status;
    // the same content (a flag that changes nothing); with no flag and no input there is nothing to write
    const w = handoff(repo, ['write', '--json', '--status', status]);
    expect(w.json).toMatchObject({ unchanged: false, target: head });
    expect(w.json.version).not.toBe(prev);
    expect(w.json.handoff.recent_commits[0]).toBe(`${head.slice(0, 7)}: feat: more`);
    expect(w.json.handoff.recent_commits).toHaveLength(3);
    repo.fsck();
  });
});

describe('write: refusals leave the repository untouched', () => {
  let repo: TestRepo;
  beforeAll(() => {
    repo = TestRepo.init();
    repo.commit('feat: first', { 'a.txt': 'a\n' });
    expect(handoff(repo, ['write', '--summary', 'base']).code).toBe(0);
    repo.git('config', 'handoff.maxBytes', '2000');
  });

  it.each([
    ['a wrong type', 'summary: [not, text]\n', [], /invalid handoff: summary must be a string, not a list/],
    ['a nested wrong type', 'cursor:\n  next_step: 12\n', [], /cursor\.next_step must be a string/],
    ['an unknown status', 'status: finished\n', [], /status must be one of active, paused, done/],
    ['four pending questions', 'cursor:\n  pending_questions: [a, b, c, d]\n', [], /cursor\.pending_questions has 4 items; at most 3/],
    ['a list document', '- summary: x\n', [], /\(document\) must be a mapping, not a list/],
    ['a scalar document', 'just some words\n', [], /must be a mapping, not a string/],
    ['YAML that does not parse', 'summary: ok\ncursor:\n  next_step: a\n bad: b\n', [], /stdin: invalid YAML at line 4/],
    ['an unclosed quote', 'summary: ok\nguards:\n  - "open\n', [], /stdin: invalid YAML at line \d/],
    ['JSON that does not parse', '{\n  "summary": "x",\n  "guards": [1,,]\n}', [], /stdin: invalid (JSON|YAML) at line 3/],
    ['a malformed work item', 'work_item: PROJ-12\n', [], /work_item must look like github:owner\/repo#N or local:#N/],
    ['both open_tracks and open_treks', 'open_tracks: []\nopen_treks: []\n', [], /open_treks/],
    ['a bad --status', '', ['--status', 'finished'], /status must be one of/],
    [
      'four --pending-question flags',
      '',
      ['--pending-question', 'a', '--pending-question', 'b', '--pending-question', 'c', '--pending-question', 'd'],
      /pending_questions has 4 items/,
    ],
    ['binary input', 'summary: a\u0000b\n', [], /stdin holds binary data/],
    ['input over handoff.maxBytes', `summary: ${'x'.repeat(2100)}\n`, [], /over the 2000-byte limit \(handoff\.maxBytes\)/],
    ['nested aliases that expand without bound', yamlBomb(), [], /stdin: invalid YAML: its aliases expand it past \d+ bytes/],
  ])('refuses %s with one line naming it', (_name, input, flags, message) => {
    const before = repo.snapshot();
    expectRefused(handoff(repo, ['write', ...(flags as string[])], { input }), message);
    expect(repo.snapshot()).toEqual(before);
  });

  it('refuses a document nested 100,000 levels deep with one line, not a crash', () => {
    repo.git('config', '--unset', 'handoff.maxBytes');
    try {
      const before = repo.snapshot();
      const deep = `{"summary": "s", "x": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
      expectRefused(handoff(repo, ['write'], { input: deep }), /stdin: invalid document: nested more than 64 levels deep/);
      expect(repo.snapshot()).toEqual(before);
    } finally {
      repo.git('config', 'handoff.maxBytes', '2000');
    }
  });

  it('refuses invalid UTF-8', () => {
    const r = handoff(repo, ['write'], { input: Buffer.from([0x73, 0x3a, 0x20, 0xc3, 0x28, 0x0a]) });
    expectRefused(r, /stdin is not valid UTF-8/);
  });

  it('prints the error as JSON too with --json', () => {
    const r = handoff(repo, ['write', '--json'], { input: 'status: finished\n' });
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ ok: false, error: { code: 'InvalidHandoff', message: expect.stringMatching(/status must be one of/) } });
    expect(Object.keys(r.json)).toEqual(['ok', 'error']);
    expect(Object.keys(r.json.error).slice(0, 2)).toEqual(['code', 'message']);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('exits 2 on a usage error, without a stack trace', () => {
    const r = handoff(repo, ['write', '--no-such-flag']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^git handoff: write: unknown option '--no-such-flag'[^\n]*\n$/);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(handoff(repo, ['log', '-n', 'many']).code).toBe(2);
    expect(handoff(repo, ['frobnicate']).stderr).toMatch(/'frobnicate' is not a git handoff command/);
  });
});

describe('write: secrets', () => {
  const fake = new FakeSecrets(2026);
  let repo: TestRepo;
  beforeAll(() => {
    repo = TestRepo.init();
    repo.commit('feat: first', { 'a.txt': 'a\n' });
  });

  it.each([
    [
      'a GitHub token in cursor.next_step',
      () => fake.githubClassic(),
      (s: string) => `summary: ok\ncursor:\n  next_step: use ${s} for the API\n`,
      'cursor.next_step',
      3,
    ],
    ['an AWS key in guards[1]', () => fake.awsAccessKey(), (s: string) => `summary: ok\nguards:\n  - fine\n  - key ${s} is prod\n`, 'guards[1]', 4],
    [
      'a private key block in summary',
      () => fake.privateKeyBlock(),
      (s: string) => `status: active\nsummary: |\n  here it is:\n  ${s.split('\n').join('\n  ')}\n`,
      'summary',
      4,
    ],
    [
      'a password assignment in an unknown field',
      () => `password=${fake.password()}`,
      (s: string) => `summary: ok\nnotes_for_me:\n  db: "${s}"\n`,
      'notes_for_me.db',
      3,
    ],
    ['a JWT in JSON input', () => fake.jwt(), (s: string) => `{"summary": "ok",\n "ask_user": ["is ${s} still valid?"]}`, 'ask_user[0]', 2],
  ])('refuses %s: exit 1, field and line named, value masked, nothing written', (_n, make, doc, field, line) => {
    const secret = make();
    const before = repo.snapshot();
    const r = handoff(repo, ['write'], { input: doc(secret) });
    expectRefused(r, new RegExp(`secret found in ${field.replace(/[[\].]/g, '\\$&')} \\(stdin line ${line}\\): .*\\*{4,}.*; nothing was written`));
    const core = secret.split('\n')[0].replace(/^password=/, '');
    expect(r.stderr).not.toContain(core.slice(6));
    expect(repo.snapshot()).toEqual(before);
    expect(repo.notesRef()).toBeNull();
  });

  it('refuses a secret given by a flag, and names it in --json with data', () => {
    const r = handoff(repo, ['write', '--json', '--summary', `deploy with ${fake.slackBot()}`]);
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({ code: 'SecretDetected', data: { field: 'summary', kind: 'Slack token' } });
    expect(r.stdout).not.toMatch(/xoxb-\d/);
  });

  it('accepts a false positive listed in handoff.secrets.allow', () => {
    const key = fake.awsAccessKey();
    repo.git('config', '--add', 'handoff.secrets.allow', `^${key}$`);
    const w = handoff(repo, ['write', '--json', '--summary', `the docs example key ${key}`]);
    expect(w.code, w.stderr).toBe(0);
    expect(repo.nativeNote()).toContain(key);
    repo.git('config', '--unset-all', 'handoff.secrets.allow');
  });

  it('masks a secret in a commit subject in recent_commits, and the write succeeds', () => {
    const token = fake.githubClassic();
    const head = repo.commit(`fix: stop logging ${token}`);
    const w = handoff(repo, ['write', '--json', '--summary', 'after the leak']);
    expect(w.code, w.stderr).toBe(0);
    expect(w.json.handoff.recent_commits[0]).toMatch(new RegExp(`^${head.slice(0, 7)}: fix: stop logging ghp_\\*{4,}$`));
    const note = repo.nativeNote()!;
    expect(note).not.toContain(token);
    expect(repo.git('log', '--notes=handoff', '-1', '--format=%N')).not.toContain(token);
    expect(repo.git('cat-file', '-p', 'refs/notes/handoff')).not.toContain(token);
  });
});

describe('write --dry-run', () => {
  it('prints the note it would write and leaves .git byte-identical, with and without history', () => {
    const repo = TestRepo.init();
    repo.commit('feat: first', { 'a.txt': 'a\n', 'cadence/_INDEX.md': 'i\n' });
    for (const round of [0, 1]) {
      const before = repo.snapshot();
      const r = handoff(repo, ['write', '--dry-run', '--summary', `dry ${round}`]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^dry run: would append a version for [0-9a-f]{7} on main with this note:\nschema: 1\n/);
      expect(r.stdout).toContain(`summary: dry ${round}\n`);
      const j = handoff(repo, ['write', '--dry-run', '--json'], { input: `summary: dry json ${round}\n` });
      expect(j.code, j.stderr).toBe(0);
      expect(j.json).toMatchObject({ ok: true, version: null, unchanged: false, dry_run: true, handoff: { summary: `dry json ${round}` } });
      expect(repo.snapshot()).toEqual(before);
      expect(handoff(repo, ['write', '--summary', 'real']).code).toBe(0);
    }
  });
});
