/**
 * Import boundaries of src/ (docs/architecture.md, "Layers" and "Rules a machine checks").
 * `npm run lint` runs it; each rule's comment says what it keeps true. ESLint covers what an
 * import graph cannot see (`process.getBuiltinModule('node:child_process')`, `run('git')`):
 * see eslint.config.js.
 */

/** Where a program may be started: the one process runner, and git/ (which starts git). */
const PROCESS_STARTERS = '^src/(process/run\\.ts$|git/)';

/**
 * The core/ modules a command may import for more than types: the ones that turn a result
 * into text (a command renders; deciding is a use case's, in app/).
 */
const CORE_RENDERERS = ['bookmark', 'canonical', 'receipt', 'version-diff', 'visible-text', 'provenance'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-is-pure',
      comment: 'core/ decides on plain values: it imports nothing of the other layers (errors.ts, the error classes, is a leaf every layer shares).',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/(core/|errors\\.ts$)' },
    },
    {
      name: 'core-has-no-io',
      comment: 'core/ may hash and join paths, but not touch files, processes, the network or the environment.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { dependencyTypes: ['core'], pathNot: '^(node:)?(crypto|path|util|buffer|string_decoder)$' },
    },
    {
      name: 'nothing-imports-commands',
      comment: 'Commands are leaves: only the entry (src/cli.ts) reaches them, through the registry that loads each lazily.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(commands/|cli\\.ts$)' },
      to: { path: '^src/commands/' },
    },
    {
      name: 'entry-uses-only-the-registry',
      comment: 'The entry names no command module itself: a command is reached through the registry, so each stays a bundle of its own.',
      severity: 'error',
      from: { path: '^src/cli\\.ts$' },
      to: { path: '^src/commands/', pathNot: '^src/commands/(registry|types)\\.ts$' },
    },
    {
      name: 'commands-go-through-app',
      comment: 'A command parses, calls one use case in app/, renders: it does not reach git, local state, processes or work-item providers itself.',
      severity: 'error',
      from: { path: '^src/commands/' },
      to: { path: '^src/(git|history|providers|state|process|agents)/' },
    },
    {
      name: 'commands-use-core-only-to-render',
      comment: `From core/ a command imports types, and the renderers (${CORE_RENDERERS.join(', ')}); a decision it needs is a use case in app/.`,
      severity: 'error',
      from: { path: '^src/commands/' },
      to: { path: '^src/core/', pathNot: `^src/core/(${CORE_RENDERERS.join('|')})\\.ts$`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'only-the-runner-starts-programs',
      comment: 'One process runner (src/process/run.ts) starts programs; git/ starts git. Everything else asks one of them.',
      severity: 'error',
      from: { path: '^src/', pathNot: PROCESS_STARTERS },
      to: { path: '^(node:)?child_process$' },
    },
    {
      name: 'no-circular-layers',
      comment: 'Data flows one way: commands -> app -> (core, git, state, agents, providers); the lower layers never import app/.',
      severity: 'error',
      from: { path: '^src/(core|git|history|state|process|agents|providers)/' },
      to: { path: '^src/app/' },
    },
    {
      name: 'history-is-above-git',
      comment: 'The one reader of versions (src/history/) is built on git/; git/ never asks it (docs/architecture.md).',
      severity: 'error',
      from: { path: '^src/git/' },
      to: { path: '^src/history/' },
    },
    {
      name: 'provenance-through-the-reader',
      comment:
        "Whose words a version holds is part of the one reader's answer (VersionReader.provenance): no use case builds a provenance reader of its own, so show, log, MCP, the hooks, the view and relay cannot disagree.",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/history/reader\\.ts$' },
      to: { path: '^src/history/provenance\\.ts$' },
    },
    {
      name: 'only-the-shell-imports-cli',
      comment: 'cli/ is the process shell (descriptors, tty, parsing): use cases and below reach the outside through the ports app/ defines.',
      severity: 'error',
      from: { path: '^src/(app|core|git|history|state|process|agents|providers)/' },
      to: { path: '^src/(cli/|cli\\.ts$|bin\\.ts$)' },
    },
    {
      name: 'errors-is-a-leaf',
      comment: 'Every layer imports errors.ts; it imports nothing of src/, so it can never pull a layer into another.',
      severity: 'error',
      from: { path: '^src/errors\\.ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'state-is-below-git',
      comment:
        'state/ (atomic writes, locks, JSON files) sits below git/, which uses it: it never imports git/, not even a type (it names what it needs of a repository structurally).',
      severity: 'error',
      from: { path: '^src/state/' },
      to: { path: '^src/git/' },
    },
    {
      name: 'the-view-client-is-a-page',
      comment:
        'src/view-client/ runs in the browser (docs/view.md): besides itself it imports only pure core/ code (types of app/view/ aside), never Node built-ins, git, files or processes.',
      severity: 'error',
      from: { path: '^src/view-client/' },
      to: { path: '^src/', pathNot: '^src/(view-client|core)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'the-view-client-has-no-node',
      comment: 'The browser has no Node built-ins: src/view-client/ imports none.',
      severity: 'error',
      from: { path: '^src/view-client/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'nothing-imports-the-view-client',
      comment: 'The page is a bundle of its own (scripts/build.mjs), read from dist/ by `git handoff view` only: no module of the CLI imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/view-client/' },
      to: { path: '^src/view-client/' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycle, type-only ones included: a cycle makes two modules one in all but name (the shared type goes to a module both import).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-orphans',
      comment: 'A module nothing imports and that imports nothing is dead code (or a file that lost its caller).',
      severity: 'error',
      from: { orphan: true, pathNot: '\\.d\\.ts$' },
      to: {},
    },
    {
      name: 'no-unresolvable',
      comment: 'An import that resolves to nothing is a typo or a file that moved.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts'],
    },
  },
};
