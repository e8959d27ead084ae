/**
 * `unparsable: sandbox`: a Bash command whose writes cannot be known, which the only asks
 * about come from rules that chose the sandbox, runs in the sandbox instead of being
 * asked about. What it writes is judged afterwards by those rules' paths (the host's
 * sandbox, engine/host/sandbox/), so the lane holds; where there is no sandbox
 * (ctx.sandbox absent or answering null: not Linux, PowerShell), the asks stand.
 */
import type { EventProtocol } from '../protocol';
import type { Decision, EvaluationContext, HookEvent, RuleHit } from '../types';
import { combineHits } from './combine';

/**
 * The decision with its sandbox asks turned into a sandboxed run, when every ask is one
 * and the event is a Bash call the host can sandbox; otherwise the decision as it is.
 * @example sandboxed(decision, event, ctx, protocol).sandbox // { rules: ['lane'], reason: '...', input: { command: "'/usr/bin/node' ..." } }
 */
export function sandboxed(decision: Decision, event: HookEvent, ctx: EvaluationContext, protocol: EventProtocol): Decision {
  if (decision.outcome !== 'ask' || !ctx.sandbox || decision.tool !== 'Bash' || protocol.event !== 'PreToolUse') return decision;
  if (!decision.decidedBy.every((h) => h.sandbox)) return decision;
  const input = event.tool_input;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return decision;
  const command = (input as { command?: unknown }).command;
  if (typeof command !== 'string' || command.trim() === '') return decision;
  const rules = [...new Set(decision.decidedBy.map((h) => h.id))];
  const wrapped = ctx.sandbox(command, event, rules);
  if (wrapped === null) return decision;
  const asks = new Set<RuleHit>(decision.decidedBy);
  const rest = combineHits(decision.hits.filter((h) => !asks.has(h)), protocol);
  return { ...decision, ...rest, sandbox: { rules, reason: decision.reason ?? '', input: { ...input, command: wrapped } } };
}

/**
 * What a sandboxed command may always write, whatever the rules that asked for the sandbox
 * say (`settings.sandbox.keep` replaces it): git's bookkeeping (objects, refs, the index,
 * its logs and state files, never its hooks, configuration or info/), and reports a test
 * run leaves (coverage, pytest's cache, eslint's cache). Nothing here holds code that
 * another tool runs later. hookpolicy's own files stay guarded (self-protection judges them).
 */
export const DEFAULT_SANDBOX_KEEP: readonly string[] = [
  '.git/objects/**', '.git/refs/**', '.git/logs/**', '.git/lfs/**', '.git/rebase-merge/**', '.git/rebase-apply/**', '.git/sequencer/**',
  '.git/index', '.git/index.lock', '.git/HEAD', '.git/*_HEAD', '.git/AUTO_MERGE', '.git/MERGE_MSG', '.git/MERGE_MODE', '.git/SQUASH_MSG',
  '.git/COMMIT_EDITMSG', '.git/packed-refs', '.git/packed-refs.lock', '.git/shallow', '.git/gc.log',
  'coverage/**', '.nyc_output/**', '.pytest_cache/**', '.eslintcache',
];
