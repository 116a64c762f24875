/**
 * The OpenCode plugin `init --agent opencode` writes to `.opencode/plugins/git-handoff.js`
 * (see opencode.ts for what each event does). Plain JavaScript with no imports but
 * node:child_process, so OpenCode loads it without installing anything; every failure is
 * swallowed (a hook never stands in the agent's way).
 */
export const OPENCODE_PLUGIN_MARK = '// git-handoff: OpenCode plugin written by `git handoff init --agent opencode`';

export const OPENCODE_PLUGIN = `${OPENCODE_PLUGIN_MARK}; \`git handoff uninstall\` removes it.
// It runs \`git-handoff-hook <event> --agent opencode\` and hands the answer to OpenCode.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

// GIT_HANDOFF_PLUGIN_LOG=<file>: one line per hook call and answer, to see what the plugin did
const log = (...parts) => {
  if (!process.env.GIT_HANDOFF_PLUGIN_LOG) return;
  try {
    appendFileSync(process.env.GIT_HANDOFF_PLUGIN_LOG, new Date().toISOString() + ' ' + parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(' ') + '\\n');
  } catch {}
};

function hook(event, input, cwd) {
  log('hook', event, input);
  return new Promise((resolve) => {
    let out = '';
    let child;
    try {
      child = spawn('git-handoff-hook', [event, '--agent', 'opencode'], { cwd, stdio: ['pipe', 'pipe', 'inherit'] });
    } catch {
      resolve({});
      return;
    }
    const timer = setTimeout(() => child.kill(), 30000);
    child.stdout.on('data', (b) => (out += b));
    child.on('error', (e) => {
      clearTimeout(timer);
      log('error', event, String(e));
      resolve({});
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      log('answer', event, code, out.slice(0, 120));
      try {
        resolve(out.trim() ? JSON.parse(out) : {});
      } catch {
        resolve({});
      }
    });
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify({ host: 'opencode', hook_event_name: event, cwd, ...input }));
  });
}

export const GitHandoff = async ({ directory, worktree, client }) => {
  const cwd = directory || worktree;
  // session id -> the answer of its session-start (a promise: the first message may come
  // before the start's answer, and the system prompt must wait for it)
  const started = new Map();
  const begin = (id) => {
    if (!started.has(id)) started.set(id, hook('session-start', { session_id: id, source: 'startup' }, cwd).then((r) => r.context || ''));
    return started.get(id);
  };
  return {
    event: async ({ event }) => {
      const id = event && event.properties && ((event.properties.info && event.properties.info.id) || event.properties.sessionID);
      if (!id) return;
      if (event.type === 'session.created') await begin(id);
      if (event.type === 'session.idle') {
        const r = await hook('stop', { session_id: id }, cwd);
        if (r.followup) await client.session.prompt({ path: { id }, body: { parts: [{ type: 'text', text: r.followup }] } }).catch(() => {});
      }
    },
    'chat.message': async (input, output) => {
      if (!input.sessionID) return;
      await begin(input.sessionID);
      const part = output.parts.find((p) => p.type === 'text' && !p.synthetic);
      if (!part) return;
      const r = await hook('user-prompt-submit', { session_id: input.sessionID, prompt: part.text }, cwd);
      if (r.context) part.text = part.text + '\\n\\n' + r.context;
    },
    'experimental.chat.system.transform': async (input, output) => {
      const context = input.sessionID && (await begin(input.sessionID));
      if (context) output.system.push(context);
    },
    'experimental.session.compacting': async (input, output) => {
      const r = await hook('pre-compact', { session_id: input.sessionID, trigger: 'auto' }, cwd);
      if (r.context) output.context.push(r.context);
    },
    'shell.env': async (input, output) => {
      if (!input.sessionID) return;
      output.env.HANDOFF_SESSION_ID = input.sessionID;
      output.env.HANDOFF_AGENT = 'opencode';
    },
  };
};
`;
