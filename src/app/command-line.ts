/**
 * How a command line is declared, and what parsing it gives: one declaration per command
 * drives the parser, `-h` and the man page (cli/spec.ts), and installers declare the
 * options they add to `init` in the same shape (app/install/types.ts).
 */
export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  describe: string;
  /** placeholder shown in usage, e.g. FILE */
  arg?: string;
}

export interface PositionalSpec {
  name: string;
  describe: string;
  optional?: boolean;
  variadic?: boolean;
}

export interface CommandSpec {
  name: string;
  summary: string;
  description?: string;
  positionals?: PositionalSpec[];
  options: Record<string, OptionSpec>;
  examples?: string[];
}

export type ParsedArgs = {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
};
