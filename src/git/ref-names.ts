/**
 * The names of the refs under a prefix, read from the files git keeps them in (loose refs,
 * then `packed-refs`), in `git for-each-ref`'s order (by name, byte by byte): for a reader
 * on a hot path (`show`'s provenance asks which remotes' handoff histories exist) that
 * should not start a git process to learn there are none. Undefined when the files cannot
 * tell for sure (a symbolic or unreadable ref): the caller asks git.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isObjectId } from '../core/object-id.js';

export function refNamesOnDisk(commonDir: string, prefix: string): string[] | undefined {
  const names = new Set<string>();
  const walk = (rel: string): boolean => {
    let entries;
    try {
      entries = readdirSync(join(commonDir, rel), { withFileTypes: true });
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ENOENT';
    }
    for (const e of entries) {
      const name = `${rel}${e.name}`;
      if (e.isDirectory()) {
        if (!walk(`${name}/`)) return false;
      } else if (!e.name.endsWith('.lock')) {
        let text: string;
        try {
          text = readFileSync(join(commonDir, name), 'utf8').trim();
        } catch {
          return false;
        }
        if (!isObjectId(text)) return false;
        names.add(name);
      }
    }
    return true;
  };
  if (!walk(prefix)) return undefined;
  let packed = '';
  try {
    packed = readFileSync(join(commonDir, 'packed-refs'), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
  }
  for (const line of packed.split('\n')) {
    if (line.length > 41 && line[40] === ' ' && isObjectId(line.slice(0, 40)) && line.startsWith(prefix, 41)) names.add(line.slice(41));
  }
  return [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}
