/**
 * The secret scan wherever content enters the notes (write, import, agent hooks,
 * sync and the pre-push hook), with a refusal that names every hit and reveals no password.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { FakeSecrets } from '../helpers/fake-secrets.js';
import { Fleet, sync, writeVersion } from '../helpers/fleet.js';
import { gitWithHooks, handoffLines } from '../helpers/hooks.js';

const fake = new FakeSecrets(1212);

function repo(): TestRepo {
  const r = TestRepo.init();
  r.commit('feat: first', { 'a.txt': 'a\n' });
  return r;
}

describe('write: the refusal', () => {
  it('names the right line for JSON input (escapes before the value), every hit, and no character of a password', () => {
    const r = repo();
    const pw = fake.password();
    const g = fake.githubClassic();
    const doc = {
      status: 'active',
      summary: 'quotes "here" and a \\ path/with/slashes\nsecond line',
      cursor: { next_step: 'wire the CLI', pending_questions: ['fine?', `notes: "password=${pw}"`] },
      guards: ['no force push', `deploy token ${g}`],
    };
    const text = JSON.stringify(doc, null, 2);
    const lines = text.split('\n');
    const pwLine = lines.findIndex((l) => l.includes(pw)) + 1;
    const gLine = lines.findIndex((l) => l.includes(g)) + 1;
    expect(pwLine).toBeGreaterThan(1);
    const before = r.snapshot();
    const w = handoff(r, ['write', '--json'], { input: text });
    expect(w.code).toBe(1);
    expect(w.json.error.code).toBe('SecretDetected');
    const msg: string = w.json.error.message;
    expect(msg).toContain(`secret found in cursor.pending_questions[1] (stdin line ${pwLine}): password assignment ********`);
    expect(msg).toContain(`also in guards[1] (stdin line ${gLine}): GitHub token ghp_********`);
    expect(msg).toContain('handoff.secrets.allow');
    expect(msg).toContain('nothing was written');
    for (const s of [pw.slice(0, 3), pw.slice(-4), g.slice(4, 10)]) expect(w.stdout + w.stderr).not.toContain(s);
    expect(w.json.error.data.hits.map((h: any) => [h.field, h.line, h.family])).toEqual([
      ['cursor.pending_questions[1]', pwLine, 'generic'],
      ['guards[1]', gLine, 'GitHub'],
    ]);
    expect(r.snapshot()).toEqual(before);
    expect(r.notesRef()).toBeNull();
  });

  it('names the right line for YAML input, and prose that only mentions secrets writes fine', () => {
    const r = repo();
    const key = fake.awsAccessKey();
    const y = `status: active\nsummary: |\n  Rotated the token; password: "ask the team lead for it".\n  DB_PASSWORD=changeme. token=\${GITHUB_TOKEN:-}\nguards:\n  - never commit .env\n  - the old key was ${key}\n`;
    const w = handoff(r, ['write'], { input: y });
    expect(w.code).toBe(1);
    expect(w.stderr).toMatch(/^git handoff: secret found in guards\[1\] \(stdin line 7\): AWS access key AKIA\*{8}; nothing was written/);
    const ok = handoff(r, ['write', '--json'], { input: y.replace(`the old key was ${key}`, 'the old key was rotated') });
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('import refuses a generic assignment in a NEXT_SESSION.md file and writes nothing', () => {
    const r = repo();
    const pw = fake.password();
    const file = join(r.dir, 'NEXT_SESSION.md');
    writeFileSync(file, `# Next session\n\n## Ask the user\n- the staging password is ${pw}, still valid?\n`);
    const w = handoff(r, ['import', file]);
    expect(w.code).toBe(1);
    expect(w.stderr).toMatch(/secret found in ask_user\[0\] .*password assignment \*{8}/);
    expect(w.stderr).not.toContain(pw.slice(0, 3));
    expect(r.notesRef()).toBeNull();
  });
});

describe('agent hooks: a session id that is a secret is not exported into handoffs', () => {
  it('warns on stderr, still answers the agent, exports nothing', () => {
    const r = TestRepo.init();
    r.commit('feat: start', { 'CLAUDE.md': '# Rules\n\nsession handoff: read on start, write on end\n' });
    const envFile = join(tempDir(), 'env.sh');
    const id = fake.githubClassic();
    const input = JSON.stringify({ session_id: id, transcript_path: '/tmp/t.jsonl', cwd: r.dir, hook_event_name: 'SessionStart', source: 'startup' });
    const h = handoff(r, ['hook', 'session-start', '--agent', 'claude'], { input, env: { CLAUDE_ENV_FILE: envFile } });
    expect(h.code).toBe(0);
    expect(h.stderr).toMatch(/session id holds a secret \(GitHub token ghp_\*{8}\); not exported/);
    expect(h.stderr).not.toContain(id);
    expect(existsSync(envFile) ? readFileSync(envFile, 'utf8') : '').not.toContain(id);
  });
});

describe('sync and pre-push: a version written by hand with a secret is not pushed', () => {
  it('sync exits 1 naming the version, the field and purge; after the purge it pushes', () => {
    const fleet = new Fleet(1);
    const [a] = fleet.clones;
    writeVersion(a, 'clean start');
    sync(a);
    a.commit('feat: more', { 'b.txt': 'b\n' });
    const pw = fake.password();
    // Another tool (or a person) writes a note directly, skipping our scan.
    a.git('notes', '--ref', 'handoff', 'add', '-f', '-m', `status: active\nsummary: |\n  moved the db\n  DB_PASSWORD=${pw}\n`, 'HEAD');
    const remoteBefore = fleet.remote.gitRaw(['rev-parse', 'refs/notes/handoff']).stdout;
    const s = handoff(a, ['sync']);
    expect(s.code).toBe(1);
    const version = a.git('rev-parse', 'refs/notes/handoff').trim();
    expect(s.stderr).toMatch(
      new RegExp(
        `secret found in summary \\(note line 4\\): password assignment \\*{8}; version ${version.slice(0, 12)} \\(note of [0-9a-f]{7}\\) was not pushed; remove it with: git handoff purge ${version.slice(0, 12)}`,
      ),
    );
    expect(s.stderr).not.toContain(pw.slice(0, 3));
    expect(fleet.remote.gitRaw(['rev-parse', 'refs/notes/handoff']).stdout).toBe(remoteBefore);

    // The same through git push with the pre-push hook: the user's push goes on, the notes stay home.
    expect(handoff(a, ['init', '--sync']).code).toBe(0);
    const push = gitWithHooks(a, ['push', '-q', 'origin', 'main']);
    expect(push.code, push.stderr).toBe(0);
    expect(handoffLines(push.stderr)).toEqual([
      expect.stringMatching(
        /^git-handoff: the handoff history was not pushed \(secret found in summary .*git handoff purge [0-9a-f]{12}.*\); your push goes on$/,
      ),
    ]);
    expect(fleet.remote.gitRaw(['rev-parse', 'refs/notes/handoff']).stdout).toBe(remoteBefore);
    expect(fleet.remote.git('rev-parse', 'main').trim()).toBe(a.head());

    expect(handoff(a, ['purge', version.slice(0, 12)]).code).toBe(0);
    const after = sync(a);
    expect(after.action).not.toBe('up-to-date');
    expect(fleet.remote.git('log', '-p', 'refs/notes/handoff')).not.toContain(pw);
  });

  it('a version the allow list accepts is pushed', () => {
    const fleet = new Fleet(1);
    const [a] = fleet.clones;
    const key = fake.awsAccessKey();
    a.git('config', 'handoff.secrets.allow', `^${key}$`);
    writeVersion(a, `the docs key ${key}`);
    expect(sync(a).outgoing).toBe(1);
  });
});
