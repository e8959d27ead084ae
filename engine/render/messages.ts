/**
 * Message text for the renderer: the length cap Claude Code applies, and the one-line
 * form of a problem the runner reports about itself.
 */
import { formatDiagnostic } from '../diagnostics';
import type { Diagnostic } from '../types';

/** Claude Code cuts hook messages at this many characters; we cut first, visibly. */
export const MESSAGE_LIMIT = 10_000;

const CUT_MARKER = '\n[... cut by hookpolicy: message longer than 10000 characters]';

/** Every line the runner writes about itself starts with this. */
export const PREFIX = 'hookpolicy: ';

/**
 * Caps a message at MESSAGE_LIMIT characters, ending a cut message with a marker.
 * @example capMessage('x'.repeat(20000)).length // 10000
 */
export function capMessage(text: string): string {
  if (text.length <= MESSAGE_LIMIT) return text;
  return text.slice(0, MESSAGE_LIMIT - CUT_MARKER.length) + CUT_MARKER;
}

/**
 * One line naming where and what went wrong, with what the runner did about it.
 * @example describeProblems([d], 'failing open') // 'hookpolicy: p.yaml:3:5: error expression-error: ... (failing open)'
 */
export function describeProblems(problems: readonly Diagnostic[], consequence?: string): string {
  const text = problems.map(formatDiagnostic).join('; ');
  return `${PREFIX}${text}${consequence ? ` (${consequence})` : ''}`;
}
