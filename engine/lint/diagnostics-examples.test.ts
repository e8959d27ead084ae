import { diagnosticBlock, diagnosticExample, diagnosticExampleFiles } from '../../test/support/doc-sections';
import { memoryContext } from '../../test/support/memory-facts';
import { buildPolicy } from '../build-policy';
import { DIAGNOSTIC_CODES } from '../diagnostics';
import { evaluate } from '../evaluate';
import { lintSources } from '../lint';
import { memoryReader } from '../load/memory-reader';
import type { Diagnostic, HookEvent } from '../types';
import { parseClaudeSettings } from './claude-settings';

/**
 * Codes whose section in docs/diagnostics.md has an example lint can check in memory: its
 * ```yaml block as the policy (each `# name.yaml` line starts a file, the first is the
 * root), its ```json block as Claude Code's settings.
 */
const LINTED = [
  'yaml-syntax', 'yaml-duplicate-key', 'include-not-found', 'include-cycle',
  'schema-unknown-key', 'schema-required', 'schema-type', 'schema-enum', 'schema-invalid', 'outcome-missing', 'outcome-multiple',
  'unknown-event', 'duplicate-rule-id', 'invalid-glob', 'invalid-regex', 'invalid-expression', 'invalid-template', 'unknown-agent', 'role-cycle',
  'let-option-invalid', 'let-name-reserved', 'record-importance',
  'regex-unsafe', 'template-unknown-value', 'template-pattern', 'outcome-impossible', 'message-user-only', 'rule-unreachable', 'prompts-no-prompt-event',
  'prompts-unset', 'allow-covers-every-path', 'on-failure-ignored', 'rule-shadowed', 'unsupported-event', 'settings-not-routed', 'settings-invalid', 'http-fail-closed',
  'final-cannot-stop', 'memory-off', 'webhook-env-not-allowed', 'webhook-header-secret', 'otlp-env-not-allowed', 'otlp-header-secret',
];

/** Running codes whose ```yaml example fails on an event: the event it is evaluated with. */
const EVALUATED: Record<string, HookEvent> = {
  'expression-error': { hook_event_name: 'PreToolUse', cwd: '/proj', tool_name: 'Bash', tool_input: { command: 'ls' } },
  'input-oversized': { hook_event_name: 'PreToolUse', cwd: '/proj', tool_name: 'Bash', tool_input: { command: `${'echo x; '.repeat(2_100)}echo y > src/a.ts` } },
};

/** Codes whose example cannot be checked in memory, each with why. */
const NOT_CHECKED: Record<string, string> = {
  'policy-not-found': 'a file missing on disk; the example is console output (test/e2e/lint.test.ts)',
  'no-policy': 'the runner finds no file on disk; the section has no example',
  'event-malformed': 'an event on stdin; the example is a command line',
  'event-unknown': 'an event from a newer Claude Code; the section has no example',
  'fact-error': 'a file the runner cannot read; the section has no example',
  'deadline-exceeded': 'a slow evaluation; the section has no example',
  'outcome-unsupported': 'a rule firing at run time; lint reports outcome-impossible instead',
  'policy-config-ignored': 'the runner\'s environment; test/robustness/policy-config.test.ts runs the example',
  'cache-error': 'the cache folder on disk; the section has no example',
  'log-error': 'the decision log on disk; the section has no example',
  'guard-linked': 'a hard link on disk; test/robustness/second-names.test.ts produces the message',
  'log-lock': 'a lock file held by another process; engine/host/log-chain/append.test.ts produces it',
  'log-notice': 'a decision log on disk given a second name; test/robustness/log-integrity.test.ts produces the message',
  'log-chain-broken': 'a decision log on disk; test/e2e/log-cli.test.ts runs the example',
  'memory-error': 'the memory store\'s folder on disk; test/e2e/memory-runner.test.ts and memory-cli.test.ts produce it',
  'memory-unavailable': 'better-sqlite3 missing or not built; test/e2e/memory-runner.test.ts and memory-cli.test.ts produce it (HOOKPOLICY_NO_SQLITE=1)',
  'postgres-error': 'the runner\'s environment; test/e2e/postgres.test.ts runs the example',
  'summarizer-error': 'a process the runner cannot start; the section has no example',
  'hook-usage': 'the runner\'s command line; the example is a command line (cli/hook.test.ts, test/e2e/cli-conventions.test.ts)',
  'internal-error': 'a bug in the runner; the section has no example',
  'webhook-env-unset': 'the runner\'s environment; test/e2e/webhook-env-headers.test.ts produces the message',
  'settings-missing': 'needs lint to have looked for settings and found none; engine/lint/settings-registration.test.ts lints the example so',
  'settings-twice': 'needs two settings files; engine/lint/settings-registration.test.ts lints the example with both',
  'settings-runner-missing': 'a file missing on disk; the section has no example',
  'test-file-not-found': 'a suite or event file missing on disk; the section has no example',
  'host-hooks-skipped': 'the hosts\' files and trust on disk; test/e2e/init-hosts.test.ts lints a project with them',
};

/** Codes whose example lint checks with a host in use (policy init --host): the host. */
const HOST_LINTED: Record<string, 'codex' | 'gemini'> = {
  'host-outcome-degraded': 'codex',
  'host-event-missing': 'codex',
  'host-no-identity': 'gemini',
};

/** Every diagnostic of a code's example, its settings parsed as lint parses them. */
function exampleDiagnostics(code: string): Diagnostic[] {
  const json = diagnosticBlock(code, 'json');
  const parsed = json ? parseClaudeSettings('.claude/settings.json', json) : { settings: null, diagnostics: [] };
  if (diagnosticBlock(code, 'yaml') === '') return parsed.diagnostics;
  const files = diagnosticExampleFiles(code);
  const roots = [Object.keys(files)[0]];
  return [...parsed.diagnostics, ...lintSources(roots, memoryReader(files), { settings: parsed.settings }).diagnostics];
}

describe('the examples of docs/diagnostics.md', () => {
  it('list every code once: linted, evaluated or not checked', () => {
    const listed = [...LINTED, ...Object.keys(EVALUATED), ...Object.keys(NOT_CHECKED), ...Object.keys(HOST_LINTED)];
    expect([...listed].sort()).toEqual(Object.keys(DIAGNOSTIC_CODES).sort());
    expect(new Set(listed).size).toBe(listed.length);
  });

  it.each(LINTED)('%s: the example produces its code, at a position', (code) => {
    const found = exampleDiagnostics(code).filter((d) => d.code === code);
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((d) => d.line === undefined || d.column === undefined)).toEqual([]);
  });

  it.each(LINTED)('%s: the example has no other error', (code) => {
    expect(exampleDiagnostics(code).filter((d) => d.code !== code && d.severity === 'error').map((d) => d.code)).toEqual([]);
  });

  it.each(Object.entries(HOST_LINTED))('%s: the example produces its code, at a position, with %s in use', (code, host) => {
    const files = diagnosticExampleFiles(code);
    const found = lintSources([Object.keys(files)[0]], memoryReader(files), { hosts: [{ host, file: `.${host}/x`, skipped: [] }] }).diagnostics;
    expect(found.filter((d) => d.code === code && d.line !== undefined && d.column !== undefined).length).toBeGreaterThan(0);
    expect(found.filter((d) => d.severity === 'error').map((d) => d.code)).toEqual([]);
    // Without the host, the same policy is clean of it.
    expect(exampleDiagnostics(code).filter((d) => d.code === code)).toEqual([]);
  });

  it.each(Object.entries(EVALUATED))('%s: the example lints clean and fails on an event', async (code, event) => {
    const built = buildPolicy(['p.yaml'], memoryReader({ 'p.yaml': diagnosticExample(code) }));
    expect(built.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const decision = await evaluate(built.policy!, event, memoryContext());
    expect(decision.errors.map((d) => d.code)).toEqual([code]);
  });
});
