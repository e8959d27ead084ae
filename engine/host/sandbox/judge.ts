/**
 * The verdict on each change a sandboxed command made: the change as a Write of its path
 * by the same agent in the same session, evaluated by the policy; it is discarded when a
 * rule that asked for the sandbox, or hookpolicy's self-protection, refuses it (deny, ask
 * or block: nobody can be asked afterwards). Rules that ignore unknown commands
 * (`unparsable: ignore`) keep ignoring them. A path `sandbox.keep` names is judged by
 * self-protection alone, except git's bookkeeping, which is refused with any refused file.
 */
import * as path from 'path';
import { globRegex } from '../../compile/glob-regex';
import { evaluateNow } from '../../evaluate';
import { DEFAULT_SANDBOX_KEEP } from '../../evaluate/sandbox';
import { SELF_PROTECTION_ID, SELF_PROTECTION_MAIN_ID } from '../../self-protection';
import type { CompiledPolicy, Decision, Facts, HookEvent } from '../../types';
import type { Change } from './changes';
import type { SandboxSpec } from './spec';

export interface Verdict {
  change: Change;
  /** Null: kept. Else the refusing rules and their message. */
  refused: { rules: string[]; message: string } | null;
  /** The path is one `sandbox.keep` names (judged by self-protection alone). */
  kept?: true;
}

/**
 * A verdict for every change.
 * @example judgeChanges(policy, spec, [{ kind: 'file', path: 'src/a.ts', mode: 0o644 }], facts, env)
 *   // [{ change: ..., refused: { rules: ['ateam-tester-writes-tests-only'], message: 'murdock is the tester ...' } }]
 */
export async function judgeChanges(policy: CompiledPolicy, spec: SandboxSpec, changes: readonly Change[], facts: Facts, env: Readonly<Record<string, string | undefined>>): Promise<Verdict[]> {
  const keep = (policy.settings.sandboxKeep ?? DEFAULT_SANDBOX_KEEP).flatMap((glob) => {
    const regex = globRegex(glob);
    return regex ? [new RegExp(regex.source, regex.flags)] : [];
  });
  const guard = [SELF_PROTECTION_ID, SELF_PROTECTION_MAIN_ID];
  const judges = new Set([...spec.rules, ...guard]);
  const verdicts: Verdict[] = [];
  for (const change of changes) {
    const kept = keep.some((r) => r.test(change.path));
    const who = kept ? new Set(guard) : judges;
    let refused: Verdict['refused'] = null;
    for (const written of writtenPaths(change)) {
      refused ??= refusal(await evaluateNow(policy, writeEvent(spec, written), { projectRoot: spec.project, env, facts, trace: false }), who);
    }
    verdicts.push({ change, refused, ...(kept ? { kept: true } : {}) });
  }
  return withGitFollowing(verdicts);
}

/**
 * When a working-tree change is refused, git's bookkeeping of the same command is refused
 * too: a commit, a checkout or a pull kept in .git but not in the files would leave HEAD
 * and the index describing files the project was not given.
 */
function withGitFollowing(verdicts: Verdict[]): Verdict[] {
  const refusedFile = verdicts.find((v) => v.refused !== null && !v.kept);
  if (!refusedFile) return verdicts;
  const why = { rules: refusedFile.refused!.rules, message: `git's bookkeeping follows the files, and ${refusedFile.change.path} was refused: ${refusedFile.refused!.message}` };
  return verdicts.map((v) => (v.kept && v.refused === null && (v.change.path === '.git' || v.change.path.startsWith('.git/')) ? { ...v, refused: why } : v));
}

/** The paths a change writes: its own, and for a link the file it leads to (as `ln` writes both, docs/paths.md). */
function writtenPaths(change: Change): string[] {
  if (change.kind !== 'symlink') return [change.path];
  return [change.path, path.posix.join(path.posix.dirname(change.path), change.target)];
}

function writeEvent(spec: SandboxSpec, rel: string): HookEvent {
  const file = path.posix.isAbsolute(rel) ? rel : path.posix.join(spec.project, rel);
  return { ...spec.event, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: file, content: '' } };
}

function refusal(decision: Decision, judges: ReadonlySet<string>): Verdict['refused'] {
  const hits = decision.hits.filter((h) => judges.has(h.id) && (h.outcome === 'deny' || h.outcome === 'block' || h.outcome === 'ask'));
  if (hits.length === 0) return null;
  return { rules: hits.map((h) => h.id), message: hits.map((h) => h.message).join('\n') };
}
