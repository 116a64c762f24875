/**
 * The evidence-gated state machine of a work item (docs/work-items.md; the source's
 * §4): backlog -> in-progress (claimed) -> in-progress (handoff) -> ready-for-review (only
 * when asked) -> done (an accepted commit). Only a person moves an item back to backlog.
 * No transition without evidence. Pure: facts in, verdict out.
 */
import type { ItemState } from './work-item.js';

export type ItemAction = 'claim' | 'handoff' | 'accept' | 'authorize' | 'retry' | 'reopen';

export interface Evidence {
  /** the commit the transition rests on (HEAD for claim/handoff/authorize, C for accept) */
  commit?: string | null;
  /** accept: the branch that contains the commit, null when none does */
  reachableFrom?: string | null;
  /** handoff: the receipt the validated document produced */
  receipt?: string | null;
  /** reopen: who asks */
  actor?: 'person' | 'agent';
  /** handoff: the state asked for with --to-status */
  target?: ItemState;
  /** retry: retries left on the authorization */
  retriesLeft?: number;
}

export type Verdict = { ok: true; to: ItemState } | { ok: false; reason: string };

const refuse = (reason: string): Verdict => ({ ok: false, reason });

/** Decides whether `action` may move an item in state `from`, given the evidence. */
export function decideTransition(action: ItemAction, from: ItemState, ev: Evidence): Verdict {
  switch (action) {
    case 'claim':
      if (from !== 'backlog') return refuse(`it is ${from}; claim only moves backlog -> in-progress`);
      if (!ev.commit) return refuse('there is no commit to record as evidence (commit once first)');
      return { ok: true, to: 'in-progress' };
    case 'handoff': {
      const target = ev.target ?? 'in-progress';
      if (target !== 'in-progress' && target !== 'ready-for-review') return refuse(`a handoff moves to in-progress or ready-for-review, not ${target}`);
      if (from === 'backlog') return refuse("it is backlog; claim it first ('git handoff claim')");
      if (from === 'done') return refuse('it is done; only a person can reopen it');
      if (from === 'ready-for-review') return refuse(`it is ready-for-review; only accept moves it on, and only a person (reopen) moves it back`);
      if (!ev.receipt) return refuse('no receipt: the handoff document was not validated');
      if (!ev.commit) return refuse('there is no commit to record as evidence');
      return { ok: true, to: target };
    }
    case 'accept':
      if (from !== 'ready-for-review') {
        const next =
          from === 'in-progress'
            ? "; first move it to review with 'git handoff doc --to-status ready-for-review'"
            : from === 'backlog'
              ? "; claim it first ('git handoff claim')"
              : '';
        return refuse(`it is ${from}; accept only moves ready-for-review -> done${next}`);
      }
      if (!ev.commit) return refuse('the commit to accept does not exist');
      if (!ev.reachableFrom) return refuse(`commit ${ev.commit.slice(0, 12)} is not reachable from any branch`);
      return { ok: true, to: 'done' };
    case 'authorize':
      if (from !== 'in-progress' && from !== 'ready-for-review')
        return refuse(`it is ${from}; delivery is authorized only for in-progress or ready-for-review items`);
      if (!ev.commit) return refuse('there is no commit to record as evidence');
      return { ok: true, to: from };
    case 'retry':
      if (from !== 'in-progress' && from !== 'ready-for-review') return refuse(`it is ${from}; there is no delivery to retry`);
      if (ev.retriesLeft === undefined) return refuse('there is no delivery authorization to spend a retry from');
      if (ev.retriesLeft <= 0) return refuse('the retry budget is spent; ask the user for a new authorization');
      return { ok: true, to: from };
    case 'reopen':
      if (ev.actor !== 'person') return refuse('only a person moves a work item back to backlog (an agent session is active or HANDOFF_AGENT is set)');
      if (from === 'backlog') return refuse('it is already backlog');
      return { ok: true, to: 'backlog' };
  }
}
