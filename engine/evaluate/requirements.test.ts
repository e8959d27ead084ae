import { compiledPolicy, compiledRule } from '../../test/support/compiled';
import { memoryContext, type MemoryFile } from '../../test/support/memory-facts';
import { evaluate } from '../evaluate';
import type { CompiledRequirement, HookEvent, RequirementCheck } from '../types';
import { describeUnmet } from './requirements';

const files: Record<string, MemoryFile> = {
  '.agent/teams/t1/wave-1/murdock/L1-index.yaml': { size: 80 },
  '.agent/teams/t1/wave-2/murdock/L1-index.yaml': { size: 10 },
  '.agent/teams/t1/wave-1/murdock/L2-summary.md': { size: 12 },
  '.agent/teams/t1/wave-1/ba/L1-index.yaml': { size: 5 },
  'docs/README.md': { content: 'hello' },
};

const idle: HookEvent = { hook_event_name: 'TeammateIdle', team_name: 't1', teammate_name: 'murdock' };
const teamDir = '.agent/teams/{{team_name}}/**/{{teammate_name}}';

async function check(requires: CompiledRequirement[], event: HookEvent = idle) {
  const rule = compiledRule({ events: ['TeammateIdle'], outcome: 'block', requires, message: '{{teammate_name}}: {{unmet}}' });
  const decision = await evaluate(compiledPolicy([rule]), event, memoryContext(files));
  return { decision, trace: decision.trace[0] };
}

describe('require', () => {
  test('unmet requirements fire the rule and {{unmet}} names them with sizes', async () => {
    const { decision, trace } = await check([
      { file: `${teamDir}/L1-index.yaml`, minBytes: 50 },
      { file: `${teamDir}/L2-summary.md`, minBytes: 100 },
      { file: `${teamDir}/L3-notes.md`, minBytes: 1 },
      { file: '.agent/teams/{{team_name}}/plan.md', minBytes: 20 },
    ]);
    expect(decision.outcome).toBe('block');
    expect(decision.reason).toBe(
      'murdock: .agent/teams/t1/wave-1/murdock/L2-summary.md is 12 bytes (needs >= 100); '
        + 'L3-notes.md missing under .agent/teams/t1; '
        + '.agent/teams/t1/plan.md missing (needs >= 20 bytes)',
    );
    expect(trace.requirements).toEqual<RequirementCheck[]>([
      { file: '.agent/teams/t1/**/murdock/L1-index.yaml', minBytes: 50, found: { path: '.agent/teams/t1/wave-1/murdock/L1-index.yaml', size: 80, mtimeMs: 0 }, ok: true },
      { file: '.agent/teams/t1/**/murdock/L2-summary.md', minBytes: 100, found: { path: '.agent/teams/t1/wave-1/murdock/L2-summary.md', size: 12, mtimeMs: 0 }, ok: false },
      { file: '.agent/teams/t1/**/murdock/L3-notes.md', minBytes: 1, found: null, ok: false },
      { file: '.agent/teams/t1/plan.md', minBytes: 20, found: null, ok: false },
    ]);
  });

  test.each<[string, CompiledRequirement[], HookEvent, string | null, { condition: string; detail: string } | undefined]>([
    ['the largest match counts', [{ file: `${teamDir}/L1-index.yaml`, minBytes: 50 }], idle, null,
      { condition: 'require', detail: 'all 1 requirement(s) met' }],
    ['another teammate', [{ file: `${teamDir}/L1-index.yaml`, minBytes: 50 }], { ...idle, teammate_name: 'ba' },
      'ba: .agent/teams/t1/wave-1/ba/L1-index.yaml is 5 bytes (needs >= 50)', undefined],
    ['an exact path that exists', [{ file: 'docs/README.md', minBytes: 1 }], idle, null,
      { condition: 'require', detail: 'all 1 requirement(s) met' }],
    ['an exact path that is too small', [{ file: 'docs/README.md', minBytes: 6 }], idle,
      'murdock: docs/README.md is 5 bytes (needs >= 6)', undefined],
    ['a folder is not a file', [{ file: 'docs', minBytes: 1 }], idle, 'murdock: docs missing', undefined],
    ['a glob without literal base', [{ file: '**/L9.md', minBytes: 1 }], idle, 'murdock: **/L9.md missing', undefined],
    ['a placeholder without value skips the rule', [{ file: `${teamDir}/L1-index.yaml`, minBytes: 1 }], { hook_event_name: 'TeammateIdle' },
      null, { condition: 'require', detail: 'no value for {{team_name}}' }],
  ])('%s', async (_name, requires, event, reason, failed) => {
    const { decision, trace } = await check(requires, event);
    expect(decision.reason).toBe(reason);
    expect(trace.failed).toEqual(failed);
  });

  describe('event values are names, not patterns (a teammate cannot pass on another\'s notes)', () => {
    const notes = (who: string): Record<string, MemoryFile> => ({
      [`.agent/teams/t1/${who}/L1-index.yaml`]: { size: 60 },
      [`.agent/teams/t1/${who}/L2-summary.md`]: { size: 120 },
    });
    const both: CompiledRequirement[] = [
      { file: `${teamDir}/L1-index.yaml`, minBytes: 50 },
      { file: `${teamDir}/L2-summary.md`, minBytes: 100 },
    ];
    async function idleOf(teammate: string, present: Record<string, MemoryFile>, team = 't1') {
      const rule = compiledRule({ events: ['TeammateIdle'], outcome: 'block', requires: both, message: '{{unmet}}' });
      return evaluate(compiledPolicy([rule]), { ...idle, team_name: team, teammate_name: teammate }, memoryContext(present));
    }

    test.each(['tester(1)', 'researcher-?', '{a,b}', '*', 'x[1]', 'a+(b)'])('%s with its own notes may go idle', async (name) => {
      expect((await idleOf(name, notes(name))).outcome).toBe('none');
    });
    test.each<[string, string]>([['*', 'murdock'], ['researcher-?', 'researcher-1'], ['{a,b}', 'a'], ['x[1]', 'x1'], ['tester(1)', 'tester1']])(
      '%s does not pass on the notes of %s', async (name, other) => {
        const decision = await idleOf(name, notes(other));
        expect(decision.outcome).toBe('block');
        expect(decision.reason).toBe(`L1-index.yaml missing under .agent/teams/t1 (needs >= 50 bytes); L2-summary.md missing under .agent/teams/t1 (needs >= 100 bytes)`);
      },
    );
    test('a team folder named with glob characters is named as written in {{unmet}}', async () => {
      const decision = await idleOf('ba', {}, 'team(1)');
      expect(decision.reason).toBe('L1-index.yaml missing under .agent/teams/team(1) (needs >= 50 bytes); L2-summary.md missing under .agent/teams/team(1) (needs >= 100 bytes)');
    });
    test.each([['..'], ['.'], ['../..'], ['t1/../..'], ['a\\..']])('team_name %s never leaves .agent/teams: the rule does not apply', async (team) => {
      const decision = await idleOf('murdock', { ...notes('murdock'), '.agent/murdock/L1-index.yaml': { size: 60 } }, team);
      expect(decision.outcome).toBe('none');
      expect(decision.trace[0].failed).toEqual({ condition: 'require', detail: `{{team_name}} is ${JSON.stringify(team)}, not one folder name` });
    });
    test('{{glob:name}} asks for the value as a pattern', async () => {
      const rule = compiledRule({ events: ['TeammateIdle'], outcome: 'block', requires: [{ file: '.agent/teams/{{team_name}}/**/{{glob:teammate_name}}/L1-index.yaml', minBytes: 50 }], message: '{{unmet}}' });
      const decision = await evaluate(compiledPolicy([rule]), { ...idle, teammate_name: 'mur*' }, memoryContext(notes('murdock')));
      expect(decision.outcome).toBe('none');
    });
  });

  test('describeUnmet skips met requirements', () => {
    expect(describeUnmet([
      { file: 'a.md', minBytes: 1, found: { path: 'a.md', size: 3, mtimeMs: 0 }, ok: true },
      { file: 'b/*.md', minBytes: 1, found: null, ok: false },
    ])).toBe('b/*.md missing');
  });
});
