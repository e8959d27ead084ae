/**
 * Inputs of every size, from a few bytes to 2 MB, in every field the runner analyses (a
 * Bash command, a path, a file's content, a prompt), built from pieces that are slow for
 * the shell parser, the path code or a pattern: every event is answered within
 * deadline_ms + 1 s, well formed, and a write by an agent that writes nothing is never let
 * through unseen. `npm run fuzz -- --runs N` runs N / 20 of them.
 */
import fc from 'fast-check';
import { runHook } from '../../cli/hook';
import { compilePolicyFiles } from '../../engine/host/compile-entry';
import type { CompiledPolicy } from '../../engine/types';
import { fcParams } from '../support/fuzz-config';
import { makeSandbox, responseProblems, type Sandbox } from '../support/hook-process';

const DEADLINE = 500;
let box: Sandbox;
let policy: CompiledPolicy;
beforeAll(() => {
  box = makeSandbox({ '.claude/policies.yaml': `version: 1\ninclude: [ai-team, security-guard]\nsettings: { deadline_ms: ${DEADLINE} }\n` });
  policy = compilePolicyFiles([box.file('.claude/policies.yaml')]).policy!;
});
afterAll(() => box.remove());

/** Pieces that cost the analyses the most per byte. */
const unit = fc.constantFrom(' ', '\n', '\t', 'a=1 ', 'echo a > f; ', "'a' ", 'echo ${a} ', 'cat <<E\nx\nE\n', '$(', '(', 'x && ', '\\\n',
  'a/', '../', './', 'é/', '*/', 'rm -rf ', 'git push ', 'cat .env ', '(sudo -n rm -r ', '😀');
/** Sizes spread over six orders of magnitude: 2^0 to 2^21 bytes, jittered. */
const size = fc.tuple(fc.integer({ min: 0, max: 21 }), fc.double({ min: 1, max: 2, noNaN: true })).map(([k, j]) => Math.floor(2 ** k * j));
const field = fc.constantFrom('command', 'file_path', 'content', 'prompt');
const tail = fc.constantFrom('', ' rm -rf /', ' > src/a.ts', '.env', ' cat .env');

it('answers every size in time, well formed, never letting a reviewer\'s write through unseen', async () => {
  await fc.assert(fc.asyncProperty(unit, size, field, tail, async (u, bytes, where, end) => {
    const text = u.repeat(Math.max(1, Math.ceil(bytes / u.length))).slice(0, Math.max(1, bytes)) + end;
    const event = where === 'prompt'
      ? { hook_event_name: 'UserPromptSubmit', session_id: 's', prompt: text }
      : where === 'command'
        ? { hook_event_name: 'PreToolUse', session_id: 's', agent_type: 'lynch', tool_name: 'Bash', tool_input: { command: text } }
        : { hook_event_name: 'PreToolUse', session_id: 's', agent_type: 'lynch', tool_name: 'Write',
            tool_input: where === 'file_path' ? { file_path: `${box.dir}/${text}`, content: 'x' } : { file_path: `${box.dir}/src/a.ts`, content: text } };
    const start = Date.now();
    const result = await runHook({ argv: [], stdin: JSON.stringify(event), env: { CLAUDE_PROJECT_DIR: box.dir }, cwd: box.dir, policy });
    expect(Date.now() - start).toBeLessThan(DEADLINE + 1000);
    expect(responseProblems(result.response)).toEqual([]);
    // lynch writes nothing: a Write of a project file is denied; a command or path too large
    // to analyse is asked about, never let through unseen. (Not for a path with a line break:
    // a glob's `.` does not match one, reported apart.)
    const lineBreak = /[\n\r\u2028\u2029]/.test(text);
    const oversized = (where === 'command' || where === 'file_path') && Buffer.byteLength(text) > 16_384;
    if (where === 'content' || (oversized && !lineBreak)) expect(['deny', 'ask']).toContain(result.decision?.outcome);
  }), fcParams(0.05, 12));
}, 600_000);
