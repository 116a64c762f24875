/**
 * The fake GitHub the work-item tests run against: `fake-gh.mjs` installed as `gh` in a
 * folder put first on PATH, its state in a JSON file, every call recorded.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliPath } from './cli.js';
import { tempDir } from './repo.js';

export interface FakeState {
  viewer?: string;
  issues: Record<string, { title: string; body: string; comments?: any[] }>;
  projects?: Record<string, { id: string; title: string; fields: any[]; items: any[] }>;
  pulls?: Record<string, any[]>;
}

export class FakeGitHub {
  readonly dir = tempDir('fake-gh-');
  readonly statePath = join(this.dir, 'state.json');
  readonly logPath = join(this.dir, 'calls.jsonl');

  constructor(initial: FakeState) {
    const bin = join(this.dir, 'bin');
    mkdirSync(bin);
    copyFileSync(join(import.meta.dirname, 'fake-gh.mjs'), join(bin, 'gh'));
    chmodSync(join(bin, 'gh'), 0o755);
    writeFileSync(this.statePath, JSON.stringify(initial, null, 2));
  }

  /** Environment for `handoff()`: the fake first on PATH, then the installed CLI. */
  env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    return { PATH: `${join(this.dir, 'bin')}:${cliPath()}`, FAKE_GH_STATE: this.statePath, FAKE_GH_LOG: this.logPath, ...extra };
  }

  /** Every call so far, oldest first. */
  calls(): string[][] {
    if (!existsSync(this.logPath)) return [];
    return readFileSync(this.logPath, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  }

  /** Forgets the calls so far. */
  resetCalls(): void {
    writeFileSync(this.logPath, '');
  }

  state(): FakeState {
    return JSON.parse(readFileSync(this.statePath, 'utf8'));
  }
}

/** Is this call one that changes something on GitHub? */
export function isWrite(argv: string[]): boolean {
  const [g, c] = argv;
  return (g === 'issue' && c === 'comment') || (g === 'project' && c === 'item-edit');
}

/** A project with the default fields a GitHub project has, plus ours. */
export function boardFixture(owner: string, repo: string, issues: number[]): NonNullable<FakeState['projects']>[string] {
  return {
    id: 'PVT_kwHOAAlI0c4A1',
    title: 'Delivery',
    fields: [
      { id: 'PVTF_title', name: 'Title', type: 'ProjectV2Field' },
      { id: 'PVTF_assignees', name: 'Assignees', type: 'ProjectV2Field' },
      {
        id: 'PVTSSF_status',
        name: 'Status',
        type: 'ProjectV2SingleSelectField',
        options: [
          { id: 'opt_backlog', name: 'backlog' },
          { id: 'opt_progress', name: 'in-progress' },
          { id: 'opt_review', name: 'ready-for-review' },
          { id: 'opt_done', name: 'done' },
        ],
      },
      { id: 'PVTF_doc', name: 'Handoff doc', type: 'ProjectV2Field' },
      { id: 'PVTF_acceptance', name: 'Acceptance', type: 'ProjectV2Field' },
    ],
    items: issues.map((n) => ({
      id: `PVTI_item${n}`,
      content: {
        type: 'Issue',
        body: '',
        title: `Issue ${n}`,
        number: n,
        repository: `${owner}/${repo}`,
        url: `https://github.com/${owner}/${repo}/issues/${n}`,
      },
      fieldValues: { PVTF_title: `Issue ${n}`, PVTSSF_status: 'backlog' },
    })),
  };
}
