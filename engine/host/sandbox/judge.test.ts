import { memoryContext } from '../../../test/support/memory-facts';
import { buildPolicy } from '../../build-policy';
import { memoryReader } from '../../load';
import type { CompiledPolicy } from '../../types';
import { judgeChanges } from './judge';
import { sandboxSpec } from './spec';

const POLICY = (settings = '') => `version: 1
${settings}agents: { roles: { tester: [murdock] } }
rules:
  - id: lane
    on: PreToolUse
    tools: Write|Bash
    agents: tester
    unparsable: sandbox
    paths: { allow: ["tests/**"] }
    deny: "{{agent}} writes tests only, not {{path}}"
  - id: no-env
    on: PreToolUse
    tools: Write|Bash
    unparsable: ignore
    paths: { deny: ["**/.env"] }
    deny: "no .env"
`;

function build(text: string): CompiledPolicy {
  const result = buildPolicy(['p.yaml'], memoryReader({ 'p.yaml': text }));
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return result.policy!;
}

const event = { hook_event_name: 'PreToolUse', session_id: 's', cwd: '/proj', agent_type: 'murdock', agent_id: 'a1' };
const spec = sandboxSpec('/proj', [], ['lane'], event);

describe('judgeChanges', () => {
  test('what the rules that asked for the sandbox refuse is refused; rules that ignore unknown commands go on ignoring; git\'s bookkeeping is kept', async () => {
    const verdicts = await judgeChanges(build(POLICY()), spec, [
      { kind: 'file', path: 'tests/a.test.ts', mode: 0o644 },
      { kind: 'file', path: 'src/a.ts', mode: 0o644 },
      { kind: 'delete', path: 'src/old.ts' },
      { kind: 'file', path: '.env', mode: 0o600 },
      { kind: 'file', path: '.git/index', mode: 0o644 },
      { kind: 'file', path: '.git/objects/ab/cdef', mode: 0o444 },
      { kind: 'file', path: '.git/hooks/pre-commit', mode: 0o755 },
      { kind: 'file', path: 'coverage/lcov.info', mode: 0o644 },
      { kind: 'symlink', path: 'tests/impl.test.ts', target: '../src/a.ts' },
    ], memoryContext({}).facts, {});
    expect(verdicts.map((v) => [v.change.path, v.refused?.rules ?? null])).toEqual([
      ['tests/a.test.ts', null],
      ['src/a.ts', ['lane']],
      ['src/old.ts', ['lane']],
      ['.env', ['lane']],
      // refused with the files: a commit or checkout kept in .git but not in the files would describe files the project lacks
      ['.git/index', ['lane']],
      ['.git/objects/ab/cdef', ['lane']],
      ['.git/hooks/pre-commit', ['lane']],
      ['coverage/lcov.info', null],
      // a link is a write of what it leads to
      ['tests/impl.test.ts', ['lane']],
    ]);
    expect(verdicts[1].refused?.message).toBe('murdock writes tests only, not src/a.ts');
    expect(verdicts[4].refused?.message).toBe('git\'s bookkeeping follows the files, and src/a.ts was refused: murdock writes tests only, not src/a.ts');
  });

  test('git\'s bookkeeping and reports are kept when every file is', async () => {
    const verdicts = await judgeChanges(build(POLICY()), spec, [
      { kind: 'file', path: 'tests/a.test.ts', mode: 0o644 },
      { kind: 'file', path: '.git/index', mode: 0o644 },
      { kind: 'file', path: '.git/refs/heads/main', mode: 0o644 },
      { kind: 'file', path: 'coverage/lcov.info', mode: 0o644 },
    ], memoryContext({}).facts, {});
    expect(verdicts.map((v) => v.refused)).toEqual([null, null, null, null]);
  });

  test('settings.sandbox.keep replaces the default list', async () => {
    const policy = build(POLICY('settings: { sandbox: { keep: ["dist/**"] } }\n'));
    const verdicts = await judgeChanges(policy, spec, [
      { kind: 'file', path: 'dist/app.js', mode: 0o644 },
      { kind: 'file', path: '.git/index', mode: 0o644 },
    ], memoryContext({}).facts, {});
    expect(verdicts.map((v) => v.refused?.rules ?? null)).toEqual([null, ['lane']]);
  });

  test('another agent\'s lane does not judge this one', async () => {
    const verdicts = await judgeChanges(build(POLICY()), sandboxSpec('/proj', [], ['lane'], { ...event, agent_type: 'ba' }), [
      { kind: 'file', path: 'src/a.ts', mode: 0o644 },
    ], memoryContext({}).facts, {});
    expect(verdicts[0].refused).toBeNull();
  });
});
