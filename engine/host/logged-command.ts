/**
 * The `command` of a decision record: what the call ran or asked for, redacted, then cut to
 * a bounded length, so `policy report` can show the commands denied most often without the
 * log carrying a whole heredoc or a secret.
 */
import type { HookEvent } from '../types';
import { redactText } from './redact';

/** The longest `command` a record keeps, in UTF-16 code units (an ellipsis marks a cut). */
export const LOGGED_COMMAND_MAX = 500;

/**
 * How much of a longer command is redacted before the cut: redaction costs ~60 ms per MB
 * on the runner's path, and a heredoc can be megabytes. 64 KiB keeps it near 4 ms while a
 * secret, a PEM block or a .env block that starts in the kept 500 characters is still
 * seen far past them (the runner itself analyses no command over 16 KiB).
 */
export const REDACT_WINDOW = 64 * 1024;

/** A tool's main input, by the field that holds it: Bash's command, WebFetch's url, WebSearch's query, Grep's and Glob's pattern. */
const MAIN_INPUTS = ['command', 'url', 'query', 'pattern'] as const;

/**
 * The event's command (or other main tool input) as the log keeps it; null when it has none.
 * Redacted before the cut (up to REDACT_WINDOW): a secret straddling the cut, or a .env
 * block whose second line is past it, is still found.
 * @example loggedCommand({ hook_event_name: 'PreToolUse', tool_input: { command: 'export API_KEY=abc && deploy' } }, []) // 'export API_KEY=[REDACTED] && deploy'
 */
export function loggedCommand(event: HookEvent, patterns: readonly string[]): string | null {
  const input = event.tool_input;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return null;
  const fields = input as Record<string, unknown>;
  const value = MAIN_INPUTS.map((k) => fields[k]).find((v): v is string => typeof v === 'string' && v.trim() !== '');
  if (value === undefined) return null;
  return cut(redactText(value.length > REDACT_WINDOW ? value.slice(0, REDACT_WINDOW) : value, patterns), LOGGED_COMMAND_MAX);
}

/** `text` cut to at most `max` code units, an ellipsis included, never inside a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}
