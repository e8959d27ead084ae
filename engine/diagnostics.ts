/**
 * Diagnostic codes: one table, keyed by code. Every problem a user can see (lint, test
 * failures, runtime errors) is a Diagnostic with one of these codes; docs/diagnostics.md
 * has one anchor per code, and `docsUrl(code)` links to it.
 */
import type { Diagnostic, Severity, SourceLocation } from './types';

export interface DiagnosticCodeInfo {
  severity: Severity;
  /** One line saying what the code means, for docs and `--help`. */
  title: string;
}

export const DIAGNOSTIC_CODES = {
  // Loading
  'policy-not-found': { severity: 'error', title: 'A policy file does not exist or cannot be read' },
  'yaml-syntax': { severity: 'error', title: 'The file is not valid YAML' },
  'yaml-duplicate-key': { severity: 'error', title: 'A mapping has the same key twice' },
  'include-not-found': { severity: 'error', title: 'An included file or pack cannot be found' },
  'include-cycle': { severity: 'error', title: 'Files include each other in a cycle' },
  // Schema
  'schema-unknown-key': { severity: 'error', title: 'A key the policy language does not have' },
  'schema-required': { severity: 'error', title: 'A required key is missing' },
  'schema-type': { severity: 'error', title: 'A value has the wrong type' },
  'schema-enum': { severity: 'error', title: 'A value is not one of the allowed values' },
  'schema-invalid': { severity: 'error', title: 'A value does not fit the policy schema' },
  'outcome-missing': { severity: 'error', title: 'A rule has no outcome (deny, ask, allow, block, warn or context)' },
  'outcome-multiple': { severity: 'error', title: 'A rule has more than one outcome' },
  // Compiling
  'unknown-event': { severity: 'error', title: 'An event name Claude Code does not have' },
  'duplicate-rule-id': { severity: 'error', title: 'Two rules have the same id' },
  'invalid-glob': { severity: 'error', title: 'A glob cannot be compiled' },
  'invalid-regex': { severity: 'error', title: 'A regular expression cannot be compiled' },
  'invalid-expression': { severity: 'error', title: 'A JSONata expression has a syntax error' },
  'invalid-template': { severity: 'error', title: 'A template has an unclosed or empty placeholder' },
  'unknown-agent': { severity: 'warning', title: 'A rule names an agent or role the policy does not define' },
  'role-cycle': { severity: 'error', title: 'Roles include each other in a cycle' },
  'template-unknown-value': { severity: 'warning', title: 'A template names a value the rule\'s events never carry' },
  'template-pattern': { severity: 'info', title: 'A templated path reads an event\'s value as a glob pattern ({{glob:name}})' },
  'outcome-impossible': { severity: 'error', title: 'A rule\'s outcome cannot take effect on one of its events' },
  'message-user-only': { severity: 'warning', title: 'A deny/block/ask message is read by the user only (or nobody), never by the model' },
  'rule-unreachable': { severity: 'warning', title: 'A rule can never fire: a condition matches nothing its events carry' },
  'prompts-no-prompt-event': { severity: 'warning', title: 'A rule has prompts, but none of its events is UserPromptSubmit, so it never fires' },
  'settings-missing': { severity: 'warning', title: 'No settings file of the project sends events to the runner' },
  'settings-twice': { severity: 'warning', title: 'The runner is registered for one event in two settings files, so it runs twice' },
  'settings-runner-missing': { severity: 'warning', title: 'A runner entry starts a file that does not exist' },
  'on-failure-ignored': { severity: 'warning', title: 'on_error is closed, but Claude Code ignores onFailure on this event: a runner that cannot start lets it through' },
  'prompts-unset': { severity: 'info', title: 'A UserPromptSubmit block or context rule without prompts also fires for background subagents\' notifications' },
  'allow-covers-every-path': { severity: 'info', title: 'An allow rule with paths approves a call only when its paths cover every path the call touches' },
  'rule-shadowed': { severity: 'warning', title: 'An earlier rule with the same or broader conditions always decides first' },
  'unsupported-event': { severity: 'error', title: 'A rule is on an event the runner must not be registered for' },
  'settings-not-routed': { severity: 'warning', title: 'Claude Code settings do not send an event (or tool) a rule needs to the runner' },
  'settings-invalid': { severity: 'error', title: 'A Claude Code settings file is not valid JSON' },
  'http-fail-closed': { severity: 'warning', title: 'on_error: closed, but events reach the runner through an HTTP hook without onFailure: block, which fails open' },
  'final-cannot-stop': { severity: 'warning', title: 'A rule has final: true but no deny or block outcome, so it never stops the chain' },
  'memory-off': { severity: 'warning', title: 'A rule records or reads the memory store, but settings.memory.store is false' },
  'let-option-invalid': { severity: 'error', title: 'A let value has an option its kind does not take' },
  'let-name-reserved': { severity: 'error', title: 'A let is named like a value the engine already binds in templates or `when`' },
  'record-importance': { severity: 'error', title: 'A record\'s importance is not a number from 0 to 1' },
  'webhook-env-not-allowed': { severity: 'warning', title: 'A webhook header names an environment variable log.webhook.allowed_env_vars does not list: it is sent as written' },
  'webhook-header-secret': { severity: 'warning', title: 'A webhook header value looks like a secret written into the policy' },
  'otlp-header-secret': { severity: 'warning', title: 'An OTLP header value looks like a secret written into the policy' },
  'host-outcome-degraded': { severity: 'warning', title: 'A rule\'s outcome cannot take effect under a host the project uses: it becomes the strictest one the host can (an ask is denied on Codex CLI)' },
  'host-event-missing': { severity: 'warning', title: 'A rule is on an event a host the project uses does not have, so it never fires there' },
  'host-hooks-skipped': { severity: 'warning', title: 'A host the project uses would skip the runner: not trusted, switched off, or not registered for an event the policy needs' },
  'host-no-identity': { severity: 'warning', title: 'A rule names agents, and a host\'s events name no acting agent (Gemini CLI): it cannot judge them there, and on_error answers visibly' },
  'otlp-env-not-allowed': { severity: 'warning', title: 'An OTLP header names an environment variable log.otlp.allowed_env_vars does not list: it is sent as written' },
  // Running
  'no-policy': { severity: 'error', title: 'The runner found no policy file to load' },
  'hook-usage': { severity: 'error', title: 'The runner\'s command line has an unknown option or a bad value' },
  'event-malformed': { severity: 'error', title: 'The hook event on stdin is not a JSON object with hook_event_name' },
  'event-unknown': { severity: 'info', title: 'An event name the runner does not know; it gives no opinion' },
  'expression-error': { severity: 'error', title: 'A JSONata expression failed while evaluating an event' },
  'fact-error': { severity: 'error', title: 'A file the policy reads could not be read' },
  'deadline-exceeded': { severity: 'error', title: 'Evaluating the event took longer than deadline_ms' },
  'regex-unsafe': { severity: 'error', title: 'A policy regular expression can backtrack catastrophically; at run time, one that ran past its watchdog' },
  'outcome-unsupported': { severity: 'warning', title: 'A rule fired with an outcome its event cannot produce' },
  'policy-config-ignored': { severity: 'warning', title: '$POLICY_CONFIG names other policy files, and the team\'s policy does not let it replace it: the team\'s policy decides' },
  'cache-error': { severity: 'warning', title: 'The compiled-policy cache could not be read or written' },
  'log-error': { severity: 'warning', title: 'The decision log could not be written' },
  'log-notice': { severity: 'warning', title: 'The decision log had lost lines at its end, or what was at its path was set aside and a new log begun: a notice line says so in the log' },
  'log-lock': { severity: 'warning', title: 'A record was appended to the decision log without its lock (held too long by another process), so the hash chain may fork' },
  'log-chain-broken': { severity: 'error', title: 'The decision log\'s hash chain is broken: a line was edited, removed, inserted, moved, cut short or garbled' },
  'memory-error': { severity: 'warning', title: 'The memory store could not be written or read' },
  'memory-unavailable': { severity: 'warning', title: 'The memory store cannot be read: better-sqlite3 is not installed or not built' },
  'postgres-error': { severity: 'warning', title: 'Records could not be queued for the team\'s PostgreSQL database, or the database cannot be reached' },
  'webhook-env-unset': { severity: 'warning', title: 'A variable the webhook\'s headers read is not set in the hook\'s environment: the record is not sent' },
  'summarizer-error': { severity: 'warning', title: 'The memory process (prose summaries, embeddings) could not be started' },
  'guard-linked': { severity: 'warning', title: 'A file hookpolicy guards has other names (hard links): a write through one changes it' },
  'input-oversized': { severity: 'warning', title: 'The event was too large to check in time; rules that deny, ask or block answered settings.oversized' },
  'internal-error': { severity: 'error', title: 'An unexpected error inside the runner' },
  'test-file-not-found': { severity: 'error', title: 'A test suite, or an event file it names, does not exist or cannot be read' },
} as const satisfies Record<string, DiagnosticCodeInfo>;

export type BuiltinDiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/**
 * Builds a diagnostic for a known code at a location.
 * @example diagnostic('unknown-event', 'Unknown event "PreTool"', loc, 'did you mean "PreToolUse"?')
 */
export function diagnostic(
  code: BuiltinDiagnosticCode,
  message: string,
  at?: SourceLocation | { file: string },
  hint?: string,
): Diagnostic {
  const d: Diagnostic = { code, severity: DIAGNOSTIC_CODES[code].severity, message };
  if (at) {
    d.file = at.file;
    if ('line' in at) {
      d.line = at.line;
      d.column = at.column;
    }
  }
  if (hint) d.hint = hint;
  return d;
}

/** Renders `file:line:col: severity code: message (hint)` on one line. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.file ? `${d.file}${d.line ? `:${d.line}:${d.column ?? 1}` : ''}: ` : '';
  const hint = d.hint ? ` (${d.hint})` : '';
  return `${where}${d.severity} ${d.code}: ${d.message}${hint}`;
}

/** Link to the docs anchor of a code. */
export function docsUrl(code: string): string {
  return `docs/diagnostics.md#${code}`;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
