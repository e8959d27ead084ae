/**
 * The memory process through the built runner, for end-to-end tests: the runner started
 * as Claude Code starts it but without blocking this process (a fake endpoint may live
 * here), the store's journal, a bounded poll for what the detached process appends, and a
 * first session (a Write, a Bash, SessionEnd) under a policy that records and recalls.
 */
import { spawn } from 'node:child_process';
import { POLICY_BIN, type TempProject } from './run-hook';

export const STORE = '.claude/hookpolicy/memory';

/** Observations, the session's summary at SessionEnd, recall at SessionStart, a search on prompts (showing how it ranked). */
export const RULES = `rules:
  - id: observe-writes
    on: PostToolUse
    tools: Write
    record: { kind: file-change, importance: 0.7, text: "Write {{paths}}", fields: { paths: "{{paths}}" } }
  - id: observe-commands
    on: PostToolUse
    tools: Bash
    record: { kind: command, text: "$ {{command}}", fields: { command: "{{command}}" } }
  - id: session-summary
    on: SessionEnd
    let:
      digest: { summary: session }
    record: { kind: summary, importance: 1.0, text: "{{digest}}" }
  - id: recall
    on: SessionStart
    let:
      recent: { summaries: 3, budget_tokens: 400 }
    context: "Earlier sessions:\\n{{recent}}"
  - id: related
    on: UserPromptSubmit
    let:
      found: { search: "{{prompt}}", limit: 3, min_relevance: 0.3 }
    context: "Related ({{found.ranking}}):\\n{{found}}"
`;

/**
 * A policy of RULES with `memory` lines (indented four spaces) under settings.memory.
 * @example memoryPolicy('    summarizer: { command: claude }')
 */
export function memoryPolicy(memory: string): string {
  return `version: 1\nsettings:\n  log: { file: .claude/decisions.jsonl }\n  memory:\n${memory}\n${RULES}`;
}

export interface RunnerRun {
  stdout: string;
  stderr: string;
  code: number | null;
  ms: number;
}

/**
 * The built runner on `event`, asynchronously.
 * @example const r = await runAsync(p, { hook_event_name: 'SessionEnd', session_id: 's1' });
 */
export function runAsync(p: TempProject, event: Record<string, unknown>, env: Record<string, string> = {}): Promise<RunnerRun> {
  const childEnv: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('CLAUDE_') && !k.startsWith('HOOKPOLICY_')) childEnv[k] = v;
  Object.assign(childEnv, { CLAUDE_PROJECT_DIR: p.dir, HOOKPOLICY_CACHE_DIR: p.cacheDir, ...env });
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [POLICY_BIN, 'hook'], { cwd: p.dir, env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), code, ms: Date.now() - started }));
    child.stdin.end(JSON.stringify({ cwd: p.dir, ...event }));
  });
}

/** The store's journal, parsed. */
export function journal(p: TempProject): Array<Record<string, unknown>> {
  return p.readJsonl(`${STORE}/journal.jsonl`);
}

/** Polls until `found` gives something, for at most `ms` (the detached process has no other way to say it is done). */
export async function waitFor<T>(found: () => T | undefined | null | false, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = found();
    if (value) return value;
    if (Date.now() > until) throw new Error(`waited ${ms} ms in vain`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The first prose summary in the journal (a summary whose fields name its source). */
export const proseOf = (p: TempProject) => () => journal(p).find((r) => r.kind === 'summary' && (r.fields as Record<string, string>).source !== undefined);
/** The first record of `kind` in the journal. */
export const recordOf = (p: TempProject, kind: string) => () => journal(p).find((r) => r.kind === kind);

/**
 * A Write and a Bash recorded, then SessionEnd (whose run it returns).
 * @example const end = await firstSession(p, 's1', { TEAM_KEY: 'k' });
 */
export async function firstSession(p: TempProject, session = 's1', env: Record<string, string> = {}): Promise<RunnerRun> {
  for (const event of [
    { hook_event_name: 'PostToolUse', session_id: session, tool_name: 'Write', tool_input: { file_path: `${p.dir}/src/auth/jwt.ts`, content: 'x' }, tool_response: {} },
    { hook_event_name: 'PostToolUse', session_id: session, tool_name: 'Bash', tool_input: { command: 'npm run build' }, tool_response: { stdout: 'ok' } },
  ]) {
    const r = await runAsync(p, event, env);
    if (r.code !== 0 || r.stdout !== '' || r.stderr !== '') throw new Error(`recording failed: ${JSON.stringify(r)}`);
  }
  return runAsync(p, { hook_event_name: 'SessionEnd', session_id: session, reason: 'other' }, env);
}
