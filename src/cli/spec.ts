/**
 * Command specs: one declaration per command gives the parser, `-h` and the man page, so
 * the three never drift. Parsing uses Node's own `util.parseArgs`: a full CLI framework
 * costs ~40 ms of start-up measured here, more than the whole budget of a commit hook.
 */
import { parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import { nearestName } from '../core/nearest-name.js';
import type { CommandSpec, OptionSpec, ParsedArgs } from '../app/command-line.js';

const HELP: OptionSpec = { type: 'boolean', short: 'h', describe: 'show this help' };

export function parseCommandArgs(spec: CommandSpec, argv: string[]): ParsedArgs {
  // No arguments: util.parseArgs would answer exactly this, and loading it costs ~0.3 ms
  // of every `git handoff show` or `sweep`.
  if (argv.length === 0) {
    const pos = spec.positionals ?? [];
    if (pos.some((p) => !p.optional)) throw new UsageError(`${spec.name}: missing ${pos[0].name}; see 'git handoff ${spec.name} -h'`);
    return { values: Object.create(null) as ParsedArgs['values'], positionals: [] };
  }
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = { help: { type: 'boolean', short: 'h' } };
  for (const [name, o] of Object.entries(spec.options)) {
    options[name] = { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) };
  }
  let parsed;
  try {
    parsed = parseArgs({ args: joinStringValues(argv, options), options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(`${spec.name}: ${usageMessage((e as Error).message, spec, argv)}; see 'git handoff ${spec.name} -h'`);
  }
  const values = parsed.values as ParsedArgs['values'];
  if (values.help) return { values, positionals: parsed.positionals };
  const pos = spec.positionals ?? [];
  const max = pos.some((p) => p.variadic) ? Infinity : pos.length;
  const min = pos.filter((p) => !p.optional).length;
  const see = `; see 'git handoff ${spec.name} -h'`;
  if (parsed.positionals.length > max) throw new UsageError(`${spec.name}: unexpected argument '${parsed.positionals[max]}'${see}`);
  if (parsed.positionals.length < min) throw new UsageError(`${spec.name}: missing ${pos[parsed.positionals.length].name}${see}`);
  return { values, positionals: parsed.positionals };
}

/**
 * A string option always takes the next argument, even one that starts with '-'
 * (`--summary '- fixed the parser'`), as git's own options do; Node's parser would call
 * that ambiguous. Rewrites such pairs to `--name=value`.
 */
function joinStringValues(argv: string[], options: Record<string, { type: 'string' | 'boolean'; short?: string }>): string[] {
  const stringLong = new Set(
    Object.entries(options)
      .filter(([, o]) => o.type === 'string')
      .map(([n]) => n),
  );
  const stringShort = new Map(
    Object.entries(options)
      .filter(([, o]) => o.type === 'string' && o.short)
      .map(([n, o]) => [o.short!, n]),
  );
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const long = a.startsWith('--') && !a.includes('=') ? a.slice(2) : null;
    const name = long !== null && stringLong.has(long) ? long : /^-[A-Za-z]$/.test(a) ? stringShort.get(a[1]) : undefined;
    if (name !== undefined && i + 1 < argv.length && argv[i + 1].startsWith('-')) {
      out.push(`--${name}=${argv[++i]}`);
    } else out.push(a);
  }
  return out;
}

function usageMessage(m: string, spec: CommandSpec, argv: string[]): string {
  // Node's messages are long and mention parseArgs; keep the part a user needs.
  const unknown = /Unknown option '([^']+)'/.exec(m);
  if (unknown) {
    const typed = unknown[1];
    const long = typed.startsWith('--') ? nearestName(typed.slice(2).split('=')[0], [...Object.keys(spec.options), 'help']) : null;
    return `unknown option '${typed}'${long ? ` (did you mean '--${long}'?)` : ''}`;
  }
  const missing = /Option '([^']+)' argument missing/.exec(m);
  if (missing) {
    // name the option as it was typed: `-n` for `log -n`, not `--max-count <value>`
    const [, short, long] = /^(?:-(\w), )?--([^ ]+)/.exec(missing[1]) ?? [];
    const typed = argv.at(-1);
    const named = typed === `-${short}` || typed === `--${long}` ? typed : missing[1].replace(/^-\w, /, '');
    return `option '${named}' needs a value`;
  }
  const unexpected = /Unexpected argument '([^']+)'/.exec(m);
  if (unexpected) return `unexpected argument '${unexpected[1]}'`;
  return m.split('\n')[0];
}

function optionLabel(name: string, o: OptionSpec): string {
  const flag = `${o.short ? `-${o.short}, ` : ''}--${name}`;
  return o.type === 'string' ? `${flag} <${o.arg ?? 'value'}>` : flag;
}

export function usageLine(spec: CommandSpec): string {
  const pos = (spec.positionals ?? []).map((p) => {
    const n = p.variadic ? `${p.name}...` : p.name;
    return p.optional ? `[${n}]` : `<${n}>`;
  });
  return ['git handoff', spec.name, '[options]', ...pos].join(' ');
}

/** The `-h` text of one command. */
export function renderHelp(spec: CommandSpec): string {
  const lines = [`usage: ${usageLine(spec)}`, '', spec.summary];
  if (spec.description) lines.push('', spec.description);
  const rows: [string, string][] = [];
  for (const p of spec.positionals ?? []) rows.push([p.name, p.describe]);
  for (const [n, o] of Object.entries(spec.options)) rows.push([optionLabel(n, o), o.describe]);
  rows.push([optionLabel('help', HELP), HELP.describe]);
  const width = Math.min(34, Math.max(...rows.map((r) => r[0].length)) + 2);
  lines.push('');
  for (const [l, d] of rows) lines.push(`  ${l.padEnd(width)}${l.length >= width ? `\n  ${' '.repeat(width)}` : ''}${d}`);
  if (spec.examples?.length) lines.push('', 'examples:', ...spec.examples.map((e) => `  ${e}`));
  return `${lines.join('\n')}\n`;
}

/** Commands under one heading of `git handoff -h` and the man page. */
export interface CommandGroup {
  title: string;
  specs: CommandSpec[];
}

/** The top-level `git handoff -h` text: the commands in their groups, as `git -h` lists them. */
export function renderOverview(groups: CommandGroup[], version: string): string {
  const width = Math.max(...groups.flatMap((g) => g.specs.map((s) => s.name.length))) + 3;
  return [
    `usage: git handoff <command> [options]`,
    '',
    'Carry the state of a piece of work from one session to the next, in git notes',
    '(refs/notes/handoff).',
    ...groups.flatMap((g) => ['', g.title, ...g.specs.map((s) => `  ${s.name.padEnd(width)}${s.summary}`)]),
    '',
    "Run 'git handoff <command> -h' for a command's options.",
    `git-handoff ${version}`,
    '',
  ].join('\n');
}

function roff(s: string): string {
  return s
    .replace(/\\/g, '\\e')
    .replace(/^([.'])/gm, '\\&$1')
    .replace(/-/g, '\\-');
}

/** The man page (git turns `git handoff --help` into `man git-handoff`). */
export function renderManPage(groups: CommandGroup[], version: string): string {
  const out = [
    `.TH GIT-HANDOFF 1 "" "git-handoff ${version}" "Git Manual"`,
    '.SH NAME',
    'git-handoff \\- versioned session handoffs kept in git notes',
    '.SH SYNOPSIS',
    '.B git handoff',
    '.I command',
    '[options]',
    '.SH DESCRIPTION',
    roff(
      "git handoff carries the state of a piece of work from one working session to the next (an AI coding agent's session, or a person's day) inside the repository. Handoffs, their version history and receipts are git notes under refs/notes/handoff; git log --notes=handoff shows them beside the commits.",
    ),
    '.SH COMMANDS',
  ];
  for (const s of groups.flatMap((g) => [g.title, ...g.specs])) {
    if (typeof s === 'string') {
      out.push(`.SS ${roff(s.replace(/^./, (c) => c.toUpperCase()))}`);
      continue;
    }
    out.push('.TP', `.B ${roff(usageLine(s))}`, roff(s.summary));
    if (s.description) out.push('.br', roff(s.description));
    for (const p of s.positionals ?? []) out.push('.RS', '.TP', `.I ${roff(p.name)}`, roff(p.describe), '.RE');
    for (const [n, o] of Object.entries(s.options)) out.push('.RS', '.TP', `.B ${roff(optionLabel(n, o))}`, roff(o.describe), '.RE');
  }
  out.push(
    '.SH EXIT STATUS',
    '0 success; 1 refused (invalid input, secret found, failed validation, not a repository); 2 usage error; 3 internal error; 4 an external step failed (safe to re\\-run).',
    '.SH ENVIRONMENT',
    '.TP',
    '.B HANDOFF_SKIP=1',
    'turns every hook off.',
    '.TP',
    '.B HANDOFF_SESSION_ID',
    'session id recorded by write.',
    '.TP',
    '.B NO_COLOR',
    'no colour in human output.',
    '.SH SEE ALSO',
    'git\\-notes(1), git\\-log(1)',
    '',
  );
  return out.join('\n');
}
