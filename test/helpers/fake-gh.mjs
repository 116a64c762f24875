#!/usr/bin/env node
// A stand-in for the GitHub CLI, placed first on PATH by the tests. It records every call
// (argv, one JSON line each) in $FAKE_GH_LOG, keeps GitHub's state in the JSON file
// $FAKE_GH_STATE, and answers with the shapes the real gh prints:
//   gh issue view N --repo O/R --json a,b,c       -> {"a":..,"b":..} (only the asked fields;
//                                                    state OPEN unless the fixture says CLOSED;
//                                                    an unknown field is refused as gh does)
//   gh issue comment N --repo O/R --body TEXT     -> the comment's URL
//   gh project view N --owner O --format json     -> {number,url,shortDescription,public,closed,title,id,readme,items,fields,owner}
//   gh project field-list N --owner O --format json -> {"fields":[{id,name,type,options?}],"totalCount"}
//   gh project item-list N --owner O --format json  -> {"items":[{id,content,<fieldKey>:value...}],"totalCount"}
//   gh project item-edit --id I --project-id P --field-id F (--text T | --single-select-option-id O)
//   gh pr list --repo O/R --head B --state open --json ...
// $FAKE_GH_FAIL, a regular expression, makes a call whose argv (joined by spaces) matches
// fail the way gh does (a message on stderr, exit 1) without changing anything.
// $FAKE_GH_NULL, likewise, makes a matching call succeed printing `null`: JSON, but not
// the shape gh prints (an answer the caller cannot use).
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';

const argv = process.argv.slice(2);
if (process.env.FAKE_GH_LOG) appendFileSync(process.env.FAKE_GH_LOG, `${JSON.stringify(argv)}\n`);

function fail(msg, code = 1) {
  process.stderr.write(`${msg}\n`);
  process.exit(code);
}

const failPattern = process.env.FAKE_GH_FAIL;
if (failPattern && new RegExp(failPattern).test(argv.join(' '))) fail('HTTP 502: Bad Gateway (https://api.github.com/graphql)');
const nullPattern = process.env.FAKE_GH_NULL;
if (nullPattern && new RegExp(nullPattern).test(argv.join(' '))) {
  process.stdout.write('null\n');
  process.exit(0);
}

const statePath = process.env.FAKE_GH_STATE;
if (!statePath) fail('fake gh: FAKE_GH_STATE is not set');
const state = JSON.parse(readFileSync(statePath, 'utf8'));
const save = () => writeFileSync(statePath, `${JSON.stringify(state, null, 2)}\n`);
const out = (v) => process.stdout.write(`${typeof v === 'string' ? v : JSON.stringify(v)}\n`);

function opt(name) {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  if (i + 1 >= argv.length) fail(`flag needs an argument: ${name}`);
  return argv[i + 1];
}
const camel = (s) => (s ? s[0].toLowerCase() + s.slice(1) : s);

function issueOf(n) {
  const repo = opt('--repo') ?? fail('fake gh: --repo is required');
  const issue = state.issues?.[`${repo}#${n}`];
  if (!issue) fail(`GraphQL: Could not resolve to an issue or pull request with the number of ${n}. (repository.issue)`);
  return { repo, issue };
}

function projectOf(n) {
  const owner = opt('--owner') ?? fail('owner is required when not running interactively');
  const p = state.projects?.[`${owner}/${n}`];
  if (!p) fail(`Could not resolve to a ProjectV2 with the number ${n}.`);
  if (opt('--format') !== 'json' && argv[1] !== 'item-edit') fail('fake gh: only --format json is implemented');
  return { owner, p };
}

const [group, cmd, ...rest] = argv;
const num = rest.find((a) => /^\d+$/.test(a));

if (group === 'issue' && cmd === 'view') {
  const { repo, issue } = issueOf(num);
  const fields = (opt('--json') ?? fail('fake gh: only --json output is implemented')).split(',');
  // What the real gh fills in for every issue, and its refusal of a field it does not know.
  const known = {
    number: Number(num),
    title: issue.title ?? '',
    body: issue.body ?? '',
    state: issue.state ?? 'OPEN',
    closed: (issue.state ?? 'OPEN') === 'CLOSED',
    url: `https://github.com/${repo}/issues/${num}`,
    comments: issue.comments ?? [],
    labels: issue.labels ?? [],
    assignees: issue.assignees ?? [],
    author: { login: state.viewer ?? 'ada' },
  };
  const unknown = fields.find((f) => !Object.hasOwn(known, f));
  if (unknown) fail(`Unknown JSON field: "${unknown}"\nAvailable fields:\n  ${Object.keys(known).sort().join('\n  ')}`);
  const doc = {};
  for (const f of fields) doc[f] = known[f];
  out(doc);
} else if (group === 'issue' && cmd === 'comment') {
  const { repo, issue } = issueOf(num);
  const body = opt('--body') ?? fail('fake gh: --body is required');
  issue.comments ??= [];
  const seq = issue.comments.length + 1;
  const url = `https://github.com/${repo}/issues/${num}#issuecomment-${1000 + seq}`;
  issue.comments.push({
    id: `IC_fake${seq}`,
    author: { login: state.viewer ?? 'ada' },
    authorAssociation: 'OWNER',
    body,
    createdAt: '2026-01-01T00:00:00Z',
    includesCreatedEdit: false,
    isMinimized: false,
    minimizedReason: '',
    reactionGroups: [],
    url,
    viewerDidAuthor: true,
  });
  save();
  out(url);
} else if (group === 'project' && cmd === 'view') {
  const { owner, p } = projectOf(num);
  out({
    number: Number(num),
    url: `https://github.com/users/${owner}/projects/${num}`,
    shortDescription: '',
    public: false,
    closed: false,
    title: p.title,
    id: p.id,
    readme: '',
    items: { totalCount: p.items.length },
    fields: { totalCount: p.fields.length },
    owner: { type: 'User', login: owner },
  });
} else if (group === 'project' && cmd === 'field-list') {
  const { p } = projectOf(num);
  out({ fields: p.fields.map((f) => ({ id: f.id, name: f.name, type: f.type, ...(f.options ? { options: f.options } : {}) })), totalCount: p.fields.length });
} else if (group === 'project' && cmd === 'item-list') {
  const { p } = projectOf(num);
  const limit = Number(opt('--limit') ?? 30);
  const items = p.items.slice(0, limit).map((i) => {
    const o = { id: i.id, content: i.content };
    for (const [fieldId, value] of Object.entries(i.fieldValues ?? {})) {
      const f = p.fields.find((x) => x.id === fieldId);
      if (f) o[camel(f.name)] = value;
    }
    return o;
  });
  out({ items, totalCount: p.items.length });
} else if (group === 'project' && cmd === 'item-edit') {
  const id = opt('--id');
  const projectId = opt('--project-id');
  const fieldId = opt('--field-id');
  const p = Object.values(state.projects ?? {}).find((x) => x.id === projectId);
  if (!p) fail(`Could not resolve to a node with the global id of '${projectId}'`);
  const item = p.items.find((i) => i.id === id) ?? fail(`Could not resolve to a node with the global id of '${id}'`);
  const field = p.fields.find((f) => f.id === fieldId) ?? fail(`Could not resolve to a node with the global id of '${fieldId}'`);
  item.fieldValues ??= {};
  const text = opt('--text');
  const option = opt('--single-select-option-id');
  if (text !== undefined) item.fieldValues[fieldId] = text;
  else if (option !== undefined) {
    const o = (field.options ?? []).find((x) => x.id === option) ?? fail(`option ${option} does not exist on field ${field.name}`);
    item.fieldValues[fieldId] = o.name;
  } else fail('fake gh: one of --text or --single-select-option-id is required');
  save();
  out(`Edited item "${item.content?.title ?? id}"`);
} else if (group === 'pr' && cmd === 'list') {
  const repo = opt('--repo') ?? fail('fake gh: --repo is required');
  const head = opt('--head');
  const fields = (opt('--json') ?? fail('fake gh: only --json output is implemented')).split(',');
  const prs = (state.pulls?.[repo] ?? []).filter((pr) => pr.state === 'OPEN' && (!head || pr.headRefName === head));
  out(prs.map((pr) => Object.fromEntries(fields.map((f) => [f, pr[f] ?? null]))));
} else {
  fail(`unknown command "${argv.join(' ')}" for "gh" (fake gh)`);
}
