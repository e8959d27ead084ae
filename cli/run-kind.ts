/**
 * The kind of a hook run, as bin's code cache counts them (bin/policy.cjs): runs of one
 * kind call much the same functions, so a cache that has seen every kind compiles none.
 * A shell command's kind also names the constructs that send its analysis down other code
 * (a redirection, a here-document, a pipe, a substitution): without them, a plain `ls`
 * that came first would leave every later `echo x > f` compiling the write analysis again.
 */
import type { Decision, HookEvent } from '../engine/types';
import { getField } from '../engine/evaluate/fields';
import { SHELL_TOOLS } from '../engine/evaluate/scope';

/** The letter each construct of a shell command adds to the kind, in this order, and the text that shows it. */
const SHELL_CONSTRUCTS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['h', ['<<']],
  ['p', ['|']],
  ['s', ['$(', '`']],
  ['w', ['>']],
];

/**
 * `<event>/<tool>/<outcome>`, then `/<constructs>` for a shell command that has any;
 * `failed` for a run that reached no decision.
 * @example runKind(decision, { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'cat <<EOF > notes.md' } }) // 'PreToolUse/Bash/none/hw'
 */
export function runKind(decision: Decision | null, event: HookEvent | undefined): string {
  if (!decision) return 'failed';
  const kind = `${decision.event}/${decision.tool ?? ''}/${decision.outcome}`;
  const command = event && decision.tool !== null && SHELL_TOOLS.has(decision.tool) ? getField(event, 'tool_input.command') : null;
  if (typeof command !== 'string') return kind;
  const constructs = SHELL_CONSTRUCTS.filter(([, marks]) => marks.some((m) => command.includes(m))).map(([letter]) => letter).join('');
  return constructs === '' ? kind : `${kind}/${constructs}`;
}

