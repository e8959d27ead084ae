/**
 * What the hook hands the sandbox: the command line that replaces a sandboxed Bash call
 * (`updatedInput.command`) carries the project, the policy files, who runs the command
 * and the rules that judge its writes, as one base64url JSON word, and the original
 * command, as the last word so that a person reading the call sees it.
 */
import type { HookEvent } from '../../types';

/** The fields of the event the sandbox's verdicts need: who acts, in which session. */
const IDENTITY = ['session_id', 'transcript_path', 'cwd', 'permission_mode', 'agent_id', 'agent_type', 'teammate_name', 'team_name'] as const;

export interface SandboxSpec {
  v: 1;
  /** The project root (absolute, real): the folder whose writes are judged. */
  project: string;
  /** The policy's root files, as the hook chose them. */
  roots: string[];
  /** The rules whose `paths` judge what the command writes (those that asked for the sandbox). */
  rules: string[];
  /** The event's identity fields, copied onto the writes judged. */
  event: Partial<Record<(typeof IDENTITY)[number], unknown>>;
}

/**
 * The spec for one sandboxed call.
 * @example sandboxSpec('/p', ['/p/.claude/policies.yaml'], ['lane'], event).event.agent_type // 'murdock'
 */
export function sandboxSpec(project: string, roots: readonly string[], rules: readonly string[], event: HookEvent): SandboxSpec {
  const identity: SandboxSpec['event'] = {};
  for (const key of IDENTITY) if (event[key] !== undefined) identity[key] = event[key];
  return { v: 1, project, roots: [...roots], rules: [...rules], event: identity };
}

/** The spec as one shell-safe word. */
export function encodeSpec(spec: SandboxSpec): string {
  return Buffer.from(JSON.stringify(spec), 'utf8').toString('base64url');
}

/**
 * The spec back, or null when the word is not one.
 * @example decodeSpec(encodeSpec(spec)) // spec
 */
export function decodeSpec(word: string): SandboxSpec | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(word, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  const v = value as Partial<SandboxSpec>;
  const strings = (list: unknown): list is string[] => Array.isArray(list) && list.every((x) => typeof x === 'string');
  if (v.v !== 1 || typeof v.project !== 'string' || !strings(v.roots) || !strings(v.rules) || v.event === null || typeof v.event !== 'object') return null;
  return v as SandboxSpec;
}

/**
 * A word for a POSIX shell: single-quoted, `'` written as `'\''`.
 * @example shellWord("it's") // "'it'\\''s'"
 */
export function shellWord(text: string): string {
  return `'${text.split("'").join("'\\''")}'`;
}

/**
 * The command line that runs `command` in the sandbox: `'node' 'sandbox.cjs' run SPEC 'command'`.
 * @example sandboxCommandLine('/usr/bin/node', '/x/dist/sandbox.cjs', spec, 'npm test')
 *   // "'/usr/bin/node' '/x/dist/sandbox.cjs' run eyJ2Ijox... 'npm test'"
 */
export function sandboxCommandLine(node: string, script: string, spec: SandboxSpec, command: string): string {
  return [shellWord(node), shellWord(script), 'run', encodeSpec(spec), shellWord(command)].join(' ');
}
