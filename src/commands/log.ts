import type { CommandModule } from './types.js';
import { JSON_OPTION, str } from './types.js';
import { withRepo } from '../app/repository.js';
import { logVersions, type LogRow } from '../app/log.js';

export type { LogRow };
import { UsageError } from '../errors.js';
import { jsonVisible, visibleText } from '../core/visible-text.js';
import { provenanceJson, provenanceLine } from '../core/provenance.js';

/** Output gathered into writes of about 64 KiB: one write per version would be 50,000 system calls. */
function chunked(write: (text: string) => void): { write(text: string): void; flush(): void } {
  let parts: string[] = [];
  let size = 0;
  const flush = () => {
    if (parts.length) write(parts.join(''));
    parts = [];
    size = 0;
  };
  return {
    write(text) {
      parts.push(text);
      size += text.length;
      if (size >= 1 << 16) flush();
    },
    flush,
  };
}

const flat = (x: unknown) => x === null || typeof x === 'string' || typeof x === 'boolean';

/**
 * A row of `log --json` as it stands in the list: the bytes of
 * `JSON.stringify(row, null, 2)` indented by four more columns, written field by field (on
 * 50,000 versions the general serializer and the re-indenting took a tenth of the listing).
 */
export function jsonRow(r: LogRow): string {
  const j = JSON.stringify;
  if (
    !(
      flat(r.version) &&
      flat(r.target) &&
      flat(r.date) &&
      flat(r.valid) &&
      flat(r.session_id) &&
      flat(r.status) &&
      flat(r.summary) &&
      flat(r.origin) &&
      flat(r.visibility) &&
      flat(r.readable)
    ) ||
    !r.continues.every(flat)
  ) {
    return jsonVisible(JSON.stringify(r, null, 2).replace(/\n/g, '\n    '));
  }
  return jsonVisible(`{
      "version": ${j(r.version)},
      "target": ${j(r.target)},
      "date": ${j(r.date)},
      "valid": ${j(r.valid)},
      "session_id": ${j(r.session_id)},
      "status": ${j(r.status)},
      "summary": ${j(r.summary)},
      "continues": ${r.continues.length ? `[\n        ${r.continues.map((c) => j(c)).join(',\n        ')}\n      ]` : '[]'},
      "author": {
        "name": ${j(r.author.name)},
        "email": ${j(r.author.email)}
      },
      "origin": ${j(r.origin)},
      "signature": ${j(r.signature)}${
        r.signer === undefined
          ? ''
          : `,
      "signer": ${j(r.signer)}`
      },
      "visibility": ${j(r.visibility)},
      "readable": ${j(r.readable)}
    }`);
}

export const command: CommandModule = {
  spec: {
    name: 'log',
    summary: 'list handoff versions, newest first',
    description: 'By default the versions of the current branch (all versions when it has none); invalid notes are listed and marked.',
    options: {
      'max-count': { type: 'string', short: 'n', arg: 'N', describe: 'show at most N versions' },
      branch: { type: 'string', arg: 'name', describe: 'versions written on this branch' },
      all: { type: 'boolean', describe: 'versions of every branch' },
      json: JSON_OPTION,
    },
  },

  async run(args, ctx) {
    const nRaw = str(args.values['max-count']);
    const max = nRaw === undefined ? Infinity : Number(nRaw);
    if (max !== Infinity && (!Number.isInteger(max) || max < 0)) throw new UsageError(`log: -n needs a whole number, not '${nRaw}'`);
    await withRepo(ctx.cwd, async (repo) => {
      const entries = await logVersions(repo, { branch: str(args.values.branch), all: Boolean(args.values.all), checkBranch: true, bulk: true });
      // Each version is written as it is found: a long history is never held at once. The
      // JSON is the bytes `JSON.stringify(doc, null, 2)` gives for the whole list.
      const out = chunked((t) => ctx.io.out(t));
      let n = 0;
      if (ctx.json) out.write('{\n  "ok": true,\n  "versions": [');
      const p = ctx.io.paint;
      for await (const { version: v, date, provenance, own } of entries) {
        if (n >= max) break;
        n++;
        if (ctx.json) {
          // (Object.assign, not a spread inside the literal: a spread followed by more keys
          // takes V8's slow path, ~5 us a row on 50,000 versions; the keys keep their order)
          const row: LogRow = Object.assign(
            {
              version: v.id,
              target: v.target,
              date,
              // encrypted for others is not invalid (readable: false says it); a damaged ciphertext is
              valid: v.valid || v.sealed === true,
              session_id: v.handoff.session_id ?? null,
              status: v.handoff.status ?? null,
              summary: v.handoff.summary ?? null,
              continues: v.continues ?? [],
            },
            provenanceJson(provenance),
            { visibility: v.visibility, readable: v.readable },
          );
          out.write(`${n > 1 ? ',' : ''}\n    ${jsonRow(row)}`);
          continue;
        }
        const head = `${p.warn(v.id.slice(0, 12))} ${p.dim(date.replace('T', ' ').replace('Z', ''))}`;
        if (v.sealed) {
          out.write(`${head} ${v.target.slice(0, 7)} (${visibleText(v.problems[0] ?? '')})\n`);
          continue;
        }
        if (!v.valid) {
          out.write(`${head} ${v.target.slice(0, 7)} (invalid: ${visibleText(v.problems[0] ?? '')})\n`);
          continue;
        }
        const summary = (v.handoff.summary ?? '').split('\n')[0];
        const whose = own ? '' : ` ${p.dim(`(${provenanceLine(provenance)})`)}`;
        out.write(`${head} ${v.target.slice(0, 7)} ${visibleText(`${v.branch ?? '-'} ${v.handoff.status ?? '-'} ${summary}`)}${whose}\n`);
      }
      if (ctx.json) out.write(n ? '\n  ]\n}\n' : ']\n}\n');
      out.flush();
    });
  },
};
