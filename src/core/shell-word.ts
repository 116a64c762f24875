/**
 * One POSIX shell word: as it is when plain, else in double quotes, else in single quotes.
 * For the "re-running '<command>' is safe" messages, so the printed command runs as shown.
 */
export function shellWord(s: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-][A-Za-z0-9_@%+=:,./#-]*$/.test(s)) return s;
  if (!/["$`\\!]/.test(s)) return `"${s}"`;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function shellCommand(args: string[]): string {
  return args.map(shellWord).join(' ');
}
