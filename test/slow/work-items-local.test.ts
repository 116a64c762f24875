import { readFileSync, writeFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { fillDoc, nativeDocHash, seedSection, snapshot, storedItem, storedReceipt } from '../helpers/work-items.js';

const W = 'local:#7';
const DOC = 'docs/HANDOFF-7.md';

function project(): TestRepo {
  const repo = TestRepo.init();
  repo.commit('feat: config parser skeleton', { 'src/parser.ts': 'export {};\n', 'README.md': '# demo\n', 'AGENTS.md': 'rules\n' });
  return repo;
}

function claimed(repo = project(), session = 's1'): TestRepo {
  const r = handoff(repo, ['claim', '--work-item', W, '--title', 'Parse the config', '--acceptance=- tests pass\n- documented', '--session', session]);
  expect(r.code, r.stderr).toBe(0);
  return repo;
}

function readDoc(repo: TestRepo, path = DOC): string {
  return readFileSync(join(repo.dir, path), 'utf8');
}

/** Claimed, skeleton rendered and filled (citing the claim receipt); returns the claim id. */
function readyDoc(repo: TestRepo, references = '[the parser](../src/parser.ts) and `src/parser.ts`'): string {
  const claimId = handoff(repo, ['status', '--work-item', W, '--json']).json.item.receipts[0].id;
  expect(handoff(repo, ['doc', '--work-item', W, '--session', 's1']).code).toBe(0);
  repo.write(
    DOC,
    fillDoc(readDoc(repo), ['Parse the config file.', `The lexer; receipt: ${claimId}`, undefined, undefined, 'none', 'no force push', references]),
  );
  return claimId;
}

describe('a local: work item, end to end', () => {
  it('lives through claim, doc, ready-for-review, accept and reopen, with every refusal on the way', () => {
    const repo = project();
    const head = repo.head();

    // claim: backlog -> in-progress with a claim receipt (session, head commit).
    const c = handoff(repo, ['claim', '--work-item', W, '--title', 'Parse the config', '--acceptance=- tests pass', '--session', 's1', '--json']);
    expect(c.code, c.stderr).toBe(0);
    expect(c.json).toMatchObject({ ok: true, work_item: W, state: 'in-progress', unchanged: false, dry_run: false, provider: { name: 'local', steps: [] } });
    expect(c.json.receipt).toMatchObject({ kind: 'claim', session: 's1', commit: head, fromStatus: 'backlog', toStatus: 'in-progress' });
    const claimId = c.json.receipt.id;
    expect(storedReceipt(repo, claimId)).toEqual(c.json.receipt);
    expect(Date.parse(c.json.receipt.at) / 1000).toBe(Number(repo.git('log', '-1', '--format=%ct', 'refs/notes/handoff').trim()));
    expect(storedItem(repo, 'items/local/7.json')).toMatchObject({
      workItem: W,
      state: 'in-progress',
      title: 'Parse the config',
      acceptance: '- tests pass',
      receipts: [claimId],
    });

    // The same claim again changes nothing; another session's claim is refused.
    const tip = repo.notesRef();
    const again = handoff(repo, ['claim', '--work-item', W, '--session', 's1', '--json']);
    expect(again.json).toMatchObject({ unchanged: true, receipt: { id: claimId } });
    expect(repo.notesRef()).toBe(tip);
    const other = handoff(repo, ['claim', '--work-item', W, '--session', 's2', '--json']);
    expect(other.code).toBe(1);
    expect(other.json.error).toMatchObject({ code: 'TransitionRefused', message: expect.stringContaining('claim only moves backlog -> in-progress') });

    // doc, phase 1: the skeleton, and nothing else.
    const sk = handoff(repo, ['doc', '--work-item', W, '--session', 's1', '--json']);
    expect(sk.json).toMatchObject({ ok: true, phase: 'skeleton', path: DOC, dry_run: false });
    expect(readDoc(repo)).toContain('# Handoff 7: Parse the config');
    expect(seedSection(readDoc(repo))).toContain('Goal: Parse the config');
    expect(repo.notesRef()).toBe(tip);

    // Unfilled: refused, every placeholder listed, nothing written.
    const unfilled = handoff(repo, ['doc', '--work-item', W, '--session', 's1', '--json']);
    expect(unfilled.code).toBe(1);
    expect(unfilled.json.error.code).toBe('ValidationFailed');
    expect(unfilled.json.error.data.problems).toHaveLength(7);
    expect(unfilled.stderr.trim().split('\n')).toHaveLength(1);
    expect(repo.notesRef()).toBe(tip);

    // Filled: validated, receipt written, SEED rewritten.
    repo.write(
      DOC,
      fillDoc(readDoc(repo), [
        'Parse the config.',
        `The lexer; receipt: ${claimId}`,
        'In `src/parser.ts`.',
        '1. the grammar',
        'none',
        'no force push',
        '[readme](../README.md)',
      ]),
    );
    const d = handoff(repo, ['doc', '--work-item', W, '--session', 's1', '--json']);
    expect(d.code, d.stderr).toBe(0);
    const text = readDoc(repo);
    const hash = nativeDocHash(repo, text);
    expect(d.json).toMatchObject({ phase: 'handoff', state: 'in-progress', unchanged: false, seed_written: true });
    expect(d.json.receipt).toEqual({
      id: `handoff-7-${hash.slice(0, 12)}`,
      workItem: W,
      session: 's1',
      handoffDocPath: DOC,
      handoffDocHash: hash,
      commit: head,
      receiptIds: [claimId],
      fromStatus: 'in-progress',
      toStatus: 'in-progress',
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      kind: 'handoff',
    });
    const docId = d.json.receipt.id;
    expect(seedSection(text)).toContain(`- ${docId}: handoff, in-progress -> in-progress`);

    // The same document again: writes nothing, same receipt.
    const tip2 = repo.notesRef();
    const d2 = handoff(repo, ['doc', '--work-item', W, '--session', 's1', '--json']);
    expect(d2.json).toMatchObject({ unchanged: true, seed_written: false, receipt: d.json.receipt });
    expect(repo.notesRef()).toBe(tip2);
    expect(readDoc(repo)).toBe(text);

    // Another target status: the same receipt, rewritten in place.
    const r = handoff(repo, ['doc', '--work-item', W, '--session', 's1', '--to-status', 'ready-for-review', '--json']);
    expect(r.json).toMatchObject({
      state: 'ready-for-review',
      unchanged: false,
      receipt: { id: docId, toStatus: 'ready-for-review', fromStatus: 'in-progress' },
    });
    expect(storedReceipt(repo, docId).toStatus).toBe('ready-for-review');
    expect(repo.git('ls-tree', '--name-only', 'refs/notes/handoff', 'receipts/').trim().split('\n')).toHaveLength(2);

    // Refused on the way: back to in-progress, done without a real or reachable commit.
    const back = handoff(repo, ['doc', '--work-item', W, '--session', 's1', '--json']);
    expect(back.code).toBe(1);
    expect(back.json.error.message).toContain('only accept moves it on');
    const ghost = handoff(repo, ['accept', '--work-item', W, '--commit', 'deadbeef', '--json']);
    expect(ghost.code).toBe(1);
    expect(ghost.json.error.message).toContain('commit deadbeef does not exist');
    const dangling = repo.git('commit-tree', '-m', 'dangling', `${head}^{tree}`).trim();
    const unreachable = handoff(repo, ['accept', '--work-item', W, '--commit', dangling, '--json']);
    expect(unreachable.code).toBe(1);
    expect(unreachable.json.error.message).toContain('is not reachable from any branch');

    // accept: ready-for-review -> done on a commit reachable from a branch.
    const a = handoff(repo, ['accept', '--work-item', W, '--commit', 'HEAD', '--json']);
    expect(a.code, a.stderr).toBe(0);
    expect(a.json).toMatchObject({ state: 'done', receipt: { kind: 'accept', commit: head, branch: 'main', receiptIds: [docId] } });

    // The same accept again finishes nothing new; nothing else moves a done item but a person.
    expect(handoff(repo, ['accept', '--work-item', W, '--commit', 'HEAD', '--json']).json).toMatchObject({
      unchanged: true,
      receipt: { id: a.json.receipt.id },
    });
    for (const args of [
      ['claim', '--work-item', W, '--title', 'x'],
      ['doc', '--work-item', W, '--session', 's1'],
      ['accept', '--work-item', W, '--commit', dangling],
      ['authorize', '--work-item', W, '--scope', 'merge', '--retries', '1'],
    ]) {
      const x = handoff(repo, [...args, '--json']);
      expect(x.code, args.join(' ')).toBe(1);
      expect(x.json.error.code).toBe('TransitionRefused');
    }
    const byAgent = handoff(repo, ['reopen', '--work-item', W, '--json'], { env: { HANDOFF_AGENT: 'claude' } });
    expect(byAgent.code).toBe(1);
    expect(byAgent.json.error.message).toContain('only a person');
    repo.write(
      '.git/handoff/session.json',
      JSON.stringify({ session_id: 'agent-1', agent: 'codex', started_at: '2026-01-01T00:00:00Z', started_head: head, wrote_handoff: false }),
    );
    expect(handoff(repo, ['reopen', '--work-item', W]).code).toBe(1);
    repo.write(
      '.git/handoff/session.json',
      JSON.stringify({
        session_id: 'agent-1',
        agent: 'codex',
        started_at: '2026-01-01T00:00:00Z',
        started_head: head,
        wrote_handoff: false,
        ended_at: '2026-01-01T01:00:00Z',
      }),
    );
    const reopen = handoff(repo, ['reopen', '--work-item', W, '--json']);
    expect(reopen.code, reopen.stderr).toBe(0);
    expect(reopen.json).toMatchObject({ state: 'backlog', receipt: { kind: 'reopen', by: 'Ada Tester <ada@example.com>', fromStatus: 'done' } });
    expect(handoff(repo, ['reopen', '--work-item', W, '--json']).json).toMatchObject({ unchanged: true });

    // status: read-only, receipts newest first.
    const before = repo.notesRef();
    const s = handoff(repo, ['status', '--work-item', W, '--json']);
    expect(s.json.item).toMatchObject({ work_item: W, state: 'backlog', title: 'Parse the config', handoff_doc: DOC, valid: true, problems: [] });
    expect(s.json.item.receipts.map((x: any) => x.kind)).toEqual(['reopen', 'accept', 'handoff', 'claim']);
    expect(Object.keys(s.json.item).slice(0, 7)).toEqual(['work_item', 'state', 'title', 'handoff_doc', 'valid', 'problems', 'receipts']);
    expect(handoff(repo, ['status', '--json']).json.items.map((x: any) => x.work_item)).toEqual([W]);
    expect(repo.notesRef()).toBe(before);

    // Bookkeeping commits are not versions: log and show skip them; native git agrees the tree is sound.
    expect(handoff(repo, ['log', '--json']).json.versions).toEqual([]);
    expect(handoff(repo, ['show', '--json']).json).toEqual({ ok: true, handoff: null, due: false });
    const kinds = repo.git('log', '--format=%(trailers:key=Handoff-Kind,valueonly)', 'refs/notes/handoff').split('\n').filter(Boolean);
    expect(kinds).toEqual(['item', 'item', 'item', 'receipt', 'item']);
    expect(handoff(repo, ['write', '--summary', 'parser done', '--json']).code).toBe(0);
    const log = handoff(repo, ['log', '--json']).json.versions;
    expect(log).toHaveLength(1);
    expect(handoff(repo, ['show', '--version', '~1']).code).toBe(1);
    expect(repo.nativeNote()).toContain('summary: parser done');
    expect(storedItem(repo, 'items/local/7.json').state).toBe('backlog');
    // A native `git notes` write keeps our bookkeeping entries.
    repo.commit('feat: next');
    repo.git('notes', '--ref=handoff', 'add', '-m', 'summary: by hand', 'HEAD');
    expect(repo.git('ls-tree', '--name-only', 'refs/notes/handoff', 'receipts/').trim().split('\n')).toHaveLength(4);
    expect(handoff(repo, ['status', '--work-item', W, '--json']).json.item.state).toBe('backlog');
    expect(handoff(repo, ['log', '--all', '--json']).json.versions).toHaveLength(2);
    repo.fsck();
  });

  it('refuses each validation failure, naming it, and writes nothing', () => {
    const repo = claimed();
    const claimId = readyDoc(repo);
    const good = readDoc(repo);
    const cases: [string, string, string][] = [
      ['missing section', good.replace('## Guards', '## Cautions'), 'missing section Guards (约束 / Не делать)'],
      ['missing SEED markers', good.replace('<!-- SEED:BEGIN -->\n', ''), '<!-- SEED:BEGIN --> is missing'],
      ['a placeholder left', good.replace('no force push', '{{what not to do}}'), 'placeholder {{what not to do}} left outside the SEED section'],
      ['a missing linked path', good.replace('../src/parser.ts', '../src/lexer.ts'), 'referenced path ../src/lexer.ts does not exist'],
      ['a missing backticked path', good.replace('`src/parser.ts`', '`src/lexer.ts`'), 'referenced path src/lexer.ts does not exist'],
      ['an unknown receipt', good.replace(claimId, 'claim-7-000000000000'), 'receipt claim-7-000000000000 does not exist'],
      ['an unknown 回执', good.replace(`receipt: ${claimId}`, '回执: handoff-7-ffffffffffff'), 'receipt handoff-7-ffffffffffff does not exist'],
    ];
    const tip = repo.notesRef();
    for (const [name, text, message] of cases) {
      repo.write(DOC, text);
      const r = handoff(repo, ['doc', '--work-item', W, '--session', 's1', '--json']);
      expect(r.code, name).toBe(1);
      expect(r.json.error.code, name).toBe('ValidationFailed');
      expect(
        r.json.error.data.problems.map((p: any) => p.message),
        name,
      ).toEqual([message]);
      expect(r.stderr, name).toContain(message);
      expect(readDoc(repo), name).toBe(text);
    }
    repo.write(DOC, good.replace('no force push', 'aws key AKIAQ3EGUKJ7ZXW4PL2M'));
    const secret = handoff(repo, ['doc', '--work-item', W, '--session', 's1', '--json']);
    expect(secret.json.error).toMatchObject({ code: 'SecretDetected', data: { field: DOC } });
    expect(secret.stderr).not.toContain('AKIAQ3EGUKJ7ZXW4PL2M');
    expect(repo.notesRef()).toBe(tip);

    // `origin/main` is not a path; a legacy JSON receipt in .harness/ counts as a receipt.
    repo.write('.harness/eval-runs/2025/run-1.json', JSON.stringify({ id: 'eval-run-0042', ok: true }));
    repo.write('.harness/sessions/legacy-session-1.json', '{}');
    repo.write(DOC, good.replace('no force push', 'no force push to `origin/main`; receipt: eval-run-0042, receipt: legacy-session-1'));
    const ok = handoff(repo, ['doc', '--work-item', W, '--session', 's1', '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json.receipt.receiptIds).toEqual([claimId, 'eval-run-0042', 'legacy-session-1']);

    // A byte-order mark is the author's: kept by the SEED rewrite, and part of git's hash.
    repo.write(DOC, `\uFEFF${readDoc(repo)}`);
    const bom = handoff(repo, ['doc', '--work-item', W, '--session', 's1', '--json']);
    expect(bom.code, bom.stderr).toBe(0);
    expect(readDoc(repo).startsWith('\uFEFF# Handoff 7')).toBe(true);
    expect(bom.json.receipt.handoffDocHash).toBe(nativeDocHash(repo, readDoc(repo)));
    expect(handoff(repo, ['status', '--work-item', W, '--json']).json.item).toMatchObject({ valid: true, problems: [] });
  });

  it('refuses a document it cannot read or write in one line, leaving nothing behind', () => {
    const repo = claimed();
    const tip = repo.notesRef();
    repo.write('docs', 'a file where the docs folder should be\n');
    const blocked = handoff(repo, ['doc', '--work-item', W, '--session', 's1', '--json']);
    expect(blocked.code, blocked.stderr).toBe(1);
    expect(blocked.json.error).toMatchObject({ code: 'InvalidInput', message: `cannot write ${DOC}: a file stands where a folder of its path should be` });
    expect(blocked.stderr.trim().split('\n')).toHaveLength(1);
    rmSync(join(repo.dir, 'docs'));
    mkdirSync(join(repo.dir, DOC), { recursive: true });
    const folder = handoff(repo, ['doc', '--work-item', W, '--session', 's1', '--json']);
    expect(folder.code, folder.stderr).toBe(1);
    expect(folder.json.error).toMatchObject({ code: 'InvalidInput', message: `cannot read ${DOC}: it is a folder` });
    expect(readdirSync(join(repo.dir, 'docs'))).toEqual(['HANDOFF-7.md']);
    const s = handoff(repo, ['status', '--work-item', W, '--json']);
    expect(s.code, s.stderr).toBe(0);
    expect(s.json.item).toMatchObject({ valid: false, problems: [{ message: `cannot read ${DOC}: it is a folder` }] });
    expect(repo.notesRef()).toBe(tip);
  });

  it('ships the document in English, Chinese and Russian', () => {
    const repo = project();
    const headings = {
      en: ['## Goal', '## Done', '## Where it stopped', '## Next steps', '## Open questions', '## Guards', '## References'],
      zh: ['## 目标', '## 已完成', '## 当前位置', '## 下一步', '## 待决问题', '## 约束', '## 参考'],
      ru: ['## Цель', '## Сделано', '## Где остановились', '## Следующие шаги', '## Открытые вопросы', '## Не делать', '## Ссылки'],
    };
    repo.git('config', 'handoff.lang', 'ru');
    for (const [n, lang] of [
      [1, 'en'],
      [2, 'zh'],
      [3, 'ru'],
    ] as const) {
      const w = `local:#${n}`;
      expect(handoff(repo, ['claim', '--work-item', w, '--title', `Item ${n}`, '--session', 's']).code).toBe(0);
      // en and zh by flag, ru from handoff.lang
      const args = ['doc', '--work-item', w, '--session', 's', ...(lang === 'ru' ? [] : ['--lang', lang])];
      expect(handoff(repo, args).code).toBe(0);
      const path = `docs/HANDOFF-${n}.md`;
      const skeleton = readDoc(repo, path);
      for (const h of headings[lang]) expect(skeleton, `${lang} ${h}`).toContain(`${h}\n`);
      expect(seedSection(skeleton)).toContain({ en: 'Goal: Item 1', zh: '目标: Item 2', ru: 'Цель: Item 3' }[lang]);
      const claimId = handoff(repo, ['status', '--work-item', w, '--json']).json.item.receipts[0].id;
      repo.write(path, fillDoc(skeleton, [undefined, lang === 'zh' ? `词法分析器 回执: ${claimId}` : `lexer receipt: ${claimId}`]));
      const d = handoff(repo, [...args, '--json']);
      expect(d.code, `${lang}: ${d.stderr}`).toBe(0);
      expect(d.json.receipt.receiptIds).toEqual([claimId]);
    }
    expect(handoff(repo, ['doc', '--work-item', 'local:#1', '--session', 's', '--lang', 'fr']).code).toBe(2);
  });

  it('--dry-run writes nothing anywhere', () => {
    const repo = project();
    const still = (label: string, run: () => void) => {
      const git = snapshot(join(repo.dir, '.git'));
      const tree = snapshot(repo.dir);
      run();
      expect(snapshot(join(repo.dir, '.git')), label).toEqual(git);
      expect(snapshot(repo.dir), label).toEqual(tree);
    };
    still('claim', () => {
      const r = handoff(repo, ['claim', '--work-item', W, '--title', 'T', '--session', 's1', '--dry-run', '--json']);
      expect(r.json).toMatchObject({ dry_run: true, state: 'in-progress', receipt: { kind: 'claim' } });
      expect(handoff(repo, ['claim', '--work-item', W, '--title', 'T', '--dry-run']).stdout).toContain('dry run: would claim local:#7');
    });
    claimed(repo);
    still('doc skeleton', () => {
      expect(handoff(repo, ['doc', '--work-item', W, '--session', 's1', '--dry-run', '--json']).json).toMatchObject({ phase: 'skeleton', dry_run: true });
    });
    readyDoc(repo);
    still('doc', () => {
      const r = handoff(repo, ['doc', '--work-item', W, '--session', 's1', '--to-status', 'ready-for-review', '--dry-run', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.json).toMatchObject({ dry_run: true, state: 'ready-for-review', seed_written: true });
    });
    expect(handoff(repo, ['doc', '--work-item', W, '--session', 's1', '--to-status', 'ready-for-review']).code).toBe(0);
    still('accept, authorize, reopen, policy approve', () => {
      expect(handoff(repo, ['authorize', '--work-item', W, '--scope', 'merge', '--retries', '2', '--dry-run', '--json']).json).toMatchObject({ dry_run: true });
      expect(handoff(repo, ['accept', '--work-item', W, '--commit', 'HEAD', '--dry-run', '--json']).json).toMatchObject({ dry_run: true, state: 'done' });
      expect(handoff(repo, ['reopen', '--work-item', W, '--dry-run', '--json']).json).toMatchObject({ dry_run: true, state: 'backlog' });
    });
    repo.write('.harness/session-workflow.yaml', 'seed:\n  constraints: [x]\n');
    still('policy approve', () => {
      expect(handoff(repo, ['policy', 'approve', '--dry-run', '--json']).json).toMatchObject({ dry_run: true, unchanged: false });
    });
  });

  it('renders the seed byte-identically whatever the clock, time zone and locale', () => {
    const repo = claimed();
    readyDoc(repo);
    expect(handoff(repo, ['doc', '--work-item', W, '--session', 's1']).code).toBe(0);
    expect(handoff(repo, ['authorize', '--work-item', W, '--scope', 'merge after green checks', '--retries', '2']).code).toBe(0);
    const runs = [
      { TZ: 'UTC', LANG: 'C', LC_ALL: 'C', GIT_COMMITTER_DATE: '@1767225600 +0000' },
      { TZ: 'Asia/Tokyo', LANG: 'ru_RU.UTF-8', LC_ALL: 'ru_RU.UTF-8', GIT_COMMITTER_DATE: '@1999999999 +0900' },
    ].map((env) => handoff(repo, ['seed', '--work-item', W], { env }));
    expect(runs[0].code, runs[0].stderr).toBe(0);
    expect(runs[0].stdout).toBe(runs[1].stdout);
    expect(runs[0].stdout).toContain('Goal: Parse the config\nAcceptance criteria:\n  - tests pass\n  - documented\n');
    expect(runs[0].stdout).toContain('Rule files (read before acting): AGENTS.md\n');
    expect(runs[0].stdout).toContain('  Scope: merge after green checks\n  Retries left: 2 of 2\n');
    expect(runs[0].stdout).not.toMatch(/20\d\d-\d\d-\d\d/);
    // The SEED section doc wrote is the same prompt, fenced.
    expect(handoff(repo, ['doc', '--work-item', W, '--session', 's1']).code).toBe(0);
    expect(seedSection(readDoc(repo))).toBe(`\`\`\`text\n${runs[0].stdout}\`\`\`\n`);
    expect(handoff(repo, ['seed', '--work-item', W, '--json']).json).toEqual({ ok: true, work_item: W, seed: runs[0].stdout });
    expect(handoff(repo, ['seed', '--work-item', 'local:#99']).code).toBe(1);

    // Nor the folder it runs in, nor how this clone spells its remote.
    const project = `Project: ${basename(repo.dir)}\n`;
    expect(runs[0].stdout).toContain(project);
    const elsewhere = join(tempDir(), 'another-checkout');
    repo.git('worktree', 'add', '-q', '--detach', elsewhere);
    expect(handoff(repo, ['seed', '--work-item', W], { cwd: elsewhere }).stdout).toContain(project);
    for (const url of ['git@example.com:acme/widgets.git', 'https://x-access-token:s3cr3t@example.com/acme/widgets']) {
      repo.git('config', 'remote.origin.url', url);
      const named = handoff(repo, ['seed', '--work-item', W]).stdout;
      expect(named, url).toContain(`${project}Repository: example.com/acme/widgets\n`);
      expect(named).not.toContain('s3cr3t');
    }
  });

  it('restores a delivery authorization and says when it is void', () => {
    const repo = claimed();
    repo.git('branch', 'release');
    repo.git('config', 'branch.main.remote', '.');
    repo.git('config', 'branch.main.merge', 'refs/heads/release');
    const a = handoff(repo, ['authorize', '--work-item', W, '--scope', 'push main and open the PR', '--retries', '2', '--json']);
    expect(a.code, a.stderr).toBe(0);
    expect(a.json.receipt).toMatchObject({
      kind: 'authorize',
      scope: 'push main and open the PR',
      retries: 2,
      branch: 'main',
      base: 'release',
      commit: repo.head(),
    });
    expect(handoff(repo, ['authorize', '--work-item', W, '--scope', 'push main and open the PR', '--retries', '2', '--json']).json.unchanged).toBe(true);
    const seed = () => handoff(repo, ['seed', '--work-item', W]).stdout;

    // A commit or a session switch keeps it.
    repo.commit('feat: grammar', { 'src/grammar.ts': 'x\n' });
    expect(seed()).toContain('Holds: a session switch');
    const r1 = handoff(repo, ['authorize', '--work-item', W, '--use-retry', '--reason', 'flaky CI', '--json']);
    expect(r1.json.receipt).toMatchObject({ kind: 'retry', authorization: a.json.receipt.id, reason: 'flaky CI' });
    expect(seed()).toContain('Retries left: 1 of 2');
    const st = handoff(repo, ['status', '--work-item', W, '--json']).json.item.authorization;
    expect(st).toMatchObject({ id: a.json.receipt.id, valid: true, retries_left: 1 });

    // The base branch changed: void.
    repo.git('config', 'branch.main.merge', 'refs/heads/main');
    expect(seed()).toContain('(VOID: the base branch changed (authorized against release, now main))');
    repo.git('config', 'branch.main.merge', 'refs/heads/release');

    // Another work item is current: void.
    expect(handoff(repo, ['write', '--summary', 'switching', '--work-item', 'local:#8']).code).toBe(0);
    expect(seed()).toContain('VOID: another work item is current (local:#8)');
    expect(handoff(repo, ['write', '--summary', 'back', '--work-item', W]).code).toBe(0);

    // Retries spent: void, and no more retries.
    expect(handoff(repo, ['authorize', '--work-item', W, '--use-retry']).code).toBe(0);
    expect(seed()).toContain('VOID: the retries are spent (2 of 2 used)');
    const spent = handoff(repo, ['authorize', '--work-item', W, '--use-retry', '--json']);
    expect(spent.code).toBe(1);
    expect(spent.json.error.message).toContain('retry budget is spent');

    // Another branch: void.
    expect(handoff(repo, ['authorize', '--work-item', W, '--scope', 'again', '--retries', '1']).code).toBe(0);
    repo.git('checkout', '-q', '-b', 'topic');
    expect(seed()).toContain('VOID: the branch changed (authorized on main, now topic)');
    expect(handoff(repo, ['authorize', '--work-item', W, '--scope', 'x', '--retries', '0']).code).toBe(2);
  });

  it('trusts a policy file only once its hash is approved', () => {
    const repo = claimed();
    readyDoc(repo);
    const policy = 'seed:\n  prefix:\n    project: Widgets\n  constraints:\n    - never push to main\nstatusValues:\n  done: Shipped\n';
    repo.write('.harness/session-workflow.yaml', policy);
    const hash = repo.gitRaw(['hash-object', '.harness/session-workflow.yaml']).stdout.trim();

    const p = handoff(repo, ['policy', '--json']);
    expect(p.json).toMatchObject({ ok: true, exists: true, hash, approved: false, trusted: false, policy: { seed: { constraints: ['never push to main'] } } });
    expect(handoff(repo, ['policy']).stdout).toContain(`NOT approved`);

    const tip = repo.notesRef();
    const refused = handoff(repo, ['doc', '--work-item', W, '--session', 's1', '--json']);
    expect(refused.code).toBe(1);
    expect(refused.json.error).toMatchObject({ code: 'PolicyNotApproved', message: expect.stringContaining('git handoff policy approve') });
    expect(repo.notesRef()).toBe(tip);
    const untrusted = handoff(repo, ['seed', '--work-item', W]);
    expect(untrusted.code).toBe(0);
    expect(untrusted.stderr).toContain('is not approved; using the built-in defaults');
    expect(untrusted.stdout).not.toContain('never push to main');

    expect(handoff(repo, ['policy', 'approve'], { env: { HANDOFF_AGENT: '1' } }).code).toBe(1);
    const approve = handoff(repo, ['policy', 'approve', '--json']);
    expect(approve.json).toMatchObject({ ok: true, hash, approved: true, unchanged: false });
    expect(repo.git('show', 'refs/notes/handoff:policy/approved')).toBe(`${hash}\n`);
    expect(handoff(repo, ['policy', 'approve', '--json']).json.unchanged).toBe(true);
    const trusted = handoff(repo, ['seed', '--work-item', W]);
    expect(trusted.stderr).toBe('');
    expect(trusted.stdout).toContain('Project: Widgets\n');
    expect(trusted.stdout).toContain('- never push to main\n');
    expect(handoff(repo, ['doc', '--work-item', W, '--session', 's1']).code).toBe(0);

    // Any change un-trusts it again; a file that does not parse is refused in one line.
    repo.write('.harness/session-workflow.yaml', `${policy}# edited\n`);
    expect(handoff(repo, ['authorize', '--work-item', W, '--scope', 'x', '--retries', '1', '--json']).json.error.code).toBe('PolicyNotApproved');
    repo.write('.harness/session-workflow.yaml', 'seed: [unclosed\n');
    const tip2 = repo.notesRef();
    for (const args of [['seed', '--work-item', W], ['status'], ['claim', '--work-item', 'local:#8', '--title', 'x'], ['policy']]) {
      const bad = handoff(repo, args);
      expect(bad.code, args.join(' ')).toBe(1);
      expect(bad.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(bad.stderr).toMatch(/^git handoff: \.harness\/session-workflow\.yaml: invalid YAML/);
    }
    expect(repo.notesRef()).toBe(tip2);
    expect(existsSync(join(repo.dir, 'docs/HANDOFF-8.md'))).toBe(false);
    writeFileSync(join(repo.dir, '.harness/session-workflow.yaml'), 'statusValues:\n  shipped: x\n');
    expect(handoff(repo, ['policy']).stderr).toContain('statusValues.shipped is not a state');
  });

  it('refuses bad command lines and unknown items cleanly', () => {
    const repo = project();
    expect(handoff(repo, ['claim', '--work-item', 'local:7', '--title', 'x']).code).toBe(2);
    expect(handoff(repo, ['claim', '--work-item', W]).code).toBe(2); // local needs --title
    expect(handoff(repo, ['doc', '--work-item', W, '--session', 's', '--to-status', 'done']).code).toBe(2);
    expect(handoff(repo, ['doc', '--work-item', W]).code).toBe(2); // no session
    const backlog = handoff(repo, ['doc', '--work-item', W, '--session', 's', '--json']);
    expect(backlog.code).toBe(1);
    expect(backlog.json.error.message).toContain('claim it first');
    expect(existsSync(join(repo.dir, DOC))).toBe(false);
    expect(handoff(repo, ['status', '--work-item', W, '--json']).json.item).toMatchObject({ state: 'backlog', title: null, valid: false });
    // Every transition out of an unclaimed item but claim is refused.
    for (const args of [
      ['accept', '--work-item', W, '--commit', 'HEAD'],
      ['authorize', '--work-item', W, '--scope', 'x', '--retries', '1'],
      ['authorize', '--work-item', W, '--use-retry'],
      ['reopen', '--work-item', W],
    ]) {
      const r = handoff(repo, [...args, '--json']);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.json.error.code, args.join(' ')).toBe('TransitionRefused');
    }
    expect(repo.notesRef()).toBeNull();
    // And on a claimed one: accept before review, a retry with no authorization.
    claimed(repo);
    const claimedTip = repo.notesRef();
    expect(handoff(repo, ['accept', '--work-item', W, '--commit', 'HEAD', '--json']).json.error.message).toContain(
      'accept only moves ready-for-review -> done',
    );
    expect(handoff(repo, ['authorize', '--work-item', W, '--use-retry', '--json']).json.error.message).toContain('no delivery authorization');
    expect(repo.notesRef()).toBe(claimedTip);
    expect(handoff(repo, ['status', '--json']).json.items).toHaveLength(1);
    // Secrets in what the user gives are refused, masked, before anything is written.
    const tip = repo.notesRef();
    const token = 'ghp_1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz';
    const leak = handoff(repo, ['claim', '--work-item', 'local:#8', '--title', `use ${token}`, '--json']);
    expect(leak.code).toBe(1);
    expect(leak.json.error).toMatchObject({ code: 'SecretDetected', data: { field: 'title' } });
    expect(leak.stderr).not.toContain(token);
    expect(handoff(repo, ['authorize', '--work-item', W, '--scope', `push with ${token}`, '--retries', '1']).code).toBe(1);
    const session = handoff(repo, ['accept', '--work-item', W, '--commit', 'HEAD', '--session', token, '--json']);
    expect(session.json.error).toMatchObject({ code: 'SecretDetected', data: { field: 'session' } });
    expect(session.stderr).not.toContain(token);
    expect(repo.notesRef()).toBe(tip);
    const unborn = TestRepo.init();
    expect(handoff(unborn, ['claim', '--work-item', W, '--title', 'x', '--json']).json.error.code).toBe('UnbornBranch');
  });
});
