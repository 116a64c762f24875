// ESLint over the whole tree: the recommended rules of ESLint and typescript-eslint, and the
// parts of the layering an import graph cannot see (.dependency-cruiser.cjs checks the
// imports; docs/architecture.md lists both). Prettier owns layout, so no stylistic rules here.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/** `process.getBuiltinModule('node:child_process')`: a lazy import depcruise cannot follow. */
const lazyChildProcess = {
  selector: "CallExpression[callee.object.name='process'][callee.property.name='getBuiltinModule'][arguments.0.value=/^(node:)?child_process$/]",
  message: 'Programs start in src/process/run.ts (git in src/git/): call run/tryRun instead (docs/architecture.md).',
};
/** `run('git', ...)` / `tryRun('git', ...)` outside git/: git is started only by src/git/. */
const gitThroughRunner = {
  selector: "CallExpression[callee.name=/^(run|tryRun|start)$/][arguments.0.value='git']",
  message: 'Only src/git/ starts git: ask a function of src/git/ (docs/architecture.md).',
};

export default tseslint.config(
  {
    ignores: ['dist/', 'node_modules/', 'man/', 'coverage/', '.bench/', '.agent-clis/', '.mcp-conformance/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A `catch {}` is how a best-effort step says "absent is fine" (a cache, a probe, a
      // clean-up); an empty block anywhere else is still an error.
      'no-empty': ['error', { allowEmptyCatch: true }],
      // `_name` marks a value kept for its position; `{ dropped, ...rest }` drops a key.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Control characters are matched on purpose (YAML quoting, terminal-safe output, the
      // secret scanner), always written as escapes; the rule flags every one of them.
      'no-control-regex': 'off',
      // An async generator cannot be an arrow function, so a method returning one reaches
      // its object through `self`; any other alias of `this` is still an error.
      '@typescript-eslint/no-this-alias': ['error', { allowedNames: ['self'] }],
    },
  },
  {
    // The view's page runs in the browser (docs/view.md).
    files: ['src/view-client/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Tests read the CLI's JSON output and poke at protocol messages: `any` is their shape.
    files: ['test/**/*.ts'],
    // Expected output is matched column for column; `/  x/` reads as the output looks.
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-regex-spaces': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    // Files of 100-250 lines; one past 400 is asking to be split (STYLE.md). Data tables are
    // exempt (the secret rules).
    files: ['src/**/*.ts'],
    ignores: ['src/core/secret-rules.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/process/run.ts', 'src/git/**'],
    rules: { 'no-restricted-syntax': ['error', lazyChildProcess, gitThroughRunner] },
  },
  {
    // core/ is pure (docs/architecture.md): plain values in, plain values out.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'core/ is pure: take the value as a parameter (docs/architecture.md).' },
        { name: 'require', message: 'core/ is pure: no module loading at run time.' },
      ],
      'no-restricted-syntax': [
        'error',
        lazyChildProcess,
        gitThroughRunner,
        {
          selector: "CallExpression[callee.property.name='getBuiltinModule']",
          message: 'core/ is pure: no I/O module (docs/architecture.md).',
        },
      ],
    },
  },
);
