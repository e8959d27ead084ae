/**
 * The shape of a lint check: data, not a branch in a switch. Each check lives in its own
 * file and is listed in checks.ts.
 */
import { DIAGNOSTIC_CODES, docsUrl } from '../diagnostics';
import type { BuiltinDiagnosticCode } from '../diagnostics';
import type { Diagnostic, Severity, SourceLocation } from '../types';
import type { LintContext } from './context';

export interface LintCheck {
  /** The diagnostic code the check reports. */
  id: BuiltinDiagnosticCode;
  /** Link to the code's section in docs/diagnostics.md. */
  docs: string;
  /** Message templates keyed by message id; `{name}` is replaced by report data. */
  messages: Record<string, string>;
  check(ctx: LintContext): Diagnostic[];
}

/** What a check reports: a message id, its data, where, and optionally a hint or a lower severity. */
export interface Report {
  messageId: string;
  data?: Record<string, string | number>;
  at: SourceLocation;
  hint?: string;
  severity?: Severity;
}

/**
 * Defines a check; `docs` defaults to the code's anchor.
 * @example defineCheck({ id: 'rule-shadowed', messages: { shadowed: '...' }, check: () => [] }).docs
 *   // 'docs/diagnostics.md#rule-shadowed'
 */
export function defineCheck(spec: Omit<LintCheck, 'docs'> & { docs?: string }): LintCheck {
  return { ...spec, docs: spec.docs ?? docsUrl(spec.id) };
}

/**
 * Turns a report into a Diagnostic with the check's code and message table.
 * @example report(check, { messageId: 'shadowed', data: { id: 'b' }, at }) // { code: 'rule-shadowed', ... }
 */
export function report(check: Pick<LintCheck, 'id' | 'messages'>, r: Report): Diagnostic {
  const template = check.messages[r.messageId] ?? r.messageId;
  const message = template.replace(/\{(\w+)\}/g, (whole, key: string) => (r.data && key in r.data ? String(r.data[key]) : whole));
  const d: Diagnostic = {
    code: check.id,
    severity: r.severity ?? DIAGNOSTIC_CODES[check.id].severity,
    message,
    file: r.at.file,
    line: r.at.line,
    column: r.at.column,
  };
  if (r.hint) d.hint = r.hint;
  return d;
}

/**
 * Where an event of a rule's `on` was written: the list item, or `on` itself for a single event.
 * @example onSegments({ on: ['Stop', 'SubagentStop'] }, 'SubagentStop') // ['on', 1]
 */
export function onSegments(raw: { on?: unknown }, event: string): Array<string | number> {
  if (!Array.isArray(raw.on)) return ['on'];
  const i = raw.on.indexOf(event);
  return i < 0 ? ['on'] : ['on', i];
}
