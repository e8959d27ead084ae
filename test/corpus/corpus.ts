/**
 * The ordinary-work corpus (fixtures/corpus/ordinary-work.yaml) as hook events, and what a
 * pack's answer to each means: quiet (no permission asked, nothing refused: a sandboxed
 * command is quiet, it runs), an ask, or a refusal (deny or block).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import type { Decision, HookEvent } from '../../engine/types';

export const CORPUS_FILE = path.resolve(__dirname, '..', '..', 'fixtures', 'corpus', 'ordinary-work.yaml');
export const PACKS = ['ai-team', 'dia', 'security-guard', 'memory', 'metrics'] as const;
export type Answer = 'quiet' | 'ask' | 'refuse';

type Raw = Record<string, unknown>;

export interface Call {
  /** Where it is in the corpus: `calls[12]`, with what it does. */
  label: string;
  event: HookEvent;
  /** What each pack must answer (quiet where not named). */
  expect: Partial<Record<string, Answer>>;
}

export interface Corpus {
  project: Record<string, string>;
  calls: Call[];
}

/**
 * The corpus, its calls as events under `projectDir`.
 * @example loadCorpus('/tmp/p').calls[0].event.tool_name // 'Read'
 */
export function loadCorpus(projectDir: string): Corpus {
  const doc = parse(fs.readFileSync(CORPUS_FILE, 'utf8')) as { project: Record<string, string>; agents: Record<string, Raw>; calls: Raw[] };
  const calls = doc.calls.map((raw, i) => toCall(raw, i, doc.agents, projectDir));
  return { project: doc.project, calls };
}

function toCall(raw: Raw, i: number, agents: Record<string, Raw>, dir: string): Call {
  const as = raw.as as string | undefined;
  if (as !== undefined && !(as in agents)) throw new Error(`calls[${i}]: unknown agent ${as}`);
  const identity: Raw = {};
  const agentType = as !== undefined ? (agents[as].agent_type as string | undefined) : undefined;
  if (agentType !== undefined) Object.assign(identity, { agent_type: agentType, agent_id: `a${as}-1` });
  const common = { session_id: 'corpus-session', transcript_path: path.join(dir, '.claude', 'transcript.jsonl'), cwd: dir, permission_mode: 'bypassPermissions' };
  const expect: Call['expect'] = {};
  for (const [pack, answer] of Object.entries((raw.expect as Raw | undefined) ?? {})) {
    // `every`: hookpolicy's own self-protection, which every policy carries.
    for (const p of pack === 'every' ? PACKS : [pack]) expect[p] = answer === 'ask' ? 'ask' : 'refuse';
  }
  if (raw.event !== undefined) {
    const fields = (raw.fields as Raw | undefined) ?? {};
    return { label: `calls[${i}] ${as ?? ''} ${raw.event as string}`.replace(/ +/g, ' '), event: { ...common, ...identity, hook_event_name: raw.event as string, ...fields }, expect };
  }
  const post = raw.post as Raw | undefined;
  const call = toolCall(post ?? raw, dir);
  const label = `calls[${i}] ${as}${post ? ' (after)' : ''} ${call.tool_name} ${describe(call.tool_input)}`;
  if (!post) return { label, event: { ...common, ...identity, hook_event_name: 'PreToolUse', ...call, tool_use_id: `toolu_${i}` }, expect };
  const failed = raw.failed === true;
  const output = (raw.output as string | undefined) ?? '';
  const response = call.tool_name === 'Bash' ? { stdout: output, stderr: '', interrupted: false, isImage: false } : { success: true };
  const after = failed ? { hook_event_name: 'PostToolUseFailure', error: output } : { hook_event_name: 'PostToolUse', tool_response: response };
  return { label, event: { ...common, ...identity, ...after, ...call, tool_use_id: `toolu_${i}` }, expect };
}

/** The tool and its input of a call, paths made absolute as Claude Code sends them. */
function toolCall(raw: Raw, dir: string): { tool_name: string; tool_input: Raw } {
  const abs = (p: string) => (path.isAbsolute(p) ? p : path.join(dir, p));
  if (typeof raw.bash === 'string') return { tool_name: 'Bash', tool_input: { command: raw.bash, description: 'run' } };
  if (typeof raw.write === 'string') return { tool_name: 'Write', tool_input: { file_path: abs(raw.write), content: 'x\n' } };
  if (typeof raw.edit === 'string') return { tool_name: 'Edit', tool_input: { file_path: abs(raw.edit), old_string: 'x', new_string: 'y' } };
  if (typeof raw.read === 'string') return { tool_name: 'Read', tool_input: { file_path: abs(raw.read) } };
  if (typeof raw.grep === 'string') return { tool_name: 'Grep', tool_input: { pattern: raw.grep, path: abs((raw.path as string | undefined) ?? '.') } };
  if (typeof raw.glob === 'string') return { tool_name: 'Glob', tool_input: { pattern: raw.glob } };
  if (typeof raw.tool === 'string') {
    const input: Raw = { ...((raw.input as Raw | undefined) ?? {}) };
    for (const key of ['file_path', 'notebook_path']) if (typeof input[key] === 'string') input[key] = abs(input[key] as string);
    return { tool_name: raw.tool, tool_input: input };
  }
  throw new Error(`a call with no tool: ${JSON.stringify(raw)}`);
}

function describe(input: Raw): string {
  const main = input.command ?? input.file_path ?? input.notebook_path ?? input.pattern ?? input.url ?? input.query ?? '';
  return String(main).slice(0, 80);
}

/**
 * A decision as the corpus counts it.
 * @example answerOf({ outcome: 'none', sandbox: {...} }) // 'quiet'
 */
export function answerOf(decision: Decision | null): Answer {
  const outcome = decision?.outcome ?? 'none';
  if (outcome === 'deny' || outcome === 'block') return 'refuse';
  return outcome === 'ask' ? 'ask' : 'quiet';
}

/**
 * What several packs together must answer: the strongest of their answers.
 * @example combined({ 'ai-team': 'refuse', 'security-guard': 'ask' }) // 'refuse'
 */
export function combined(expect: Call['expect']): Answer {
  const answers = Object.values(expect);
  return answers.includes('refuse') ? 'refuse' : answers.includes('ask') ? 'ask' : 'quiet';
}
