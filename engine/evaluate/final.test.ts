import { buildRules, compiled } from '../compile/test-support';
import { memoryContext } from '../../test/support/memory-facts';
import { evaluate } from '../evaluate';
import type { HookEvent } from '../types';

const write: HookEvent = { hook_event_name: 'PreToolUse', cwd: '/proj', tool_name: 'Write', tool_input: { file_path: '/proj/.env' } };

const chain = (finalLine: string, outcome = 'deny: "no .env"') => compiled(buildRules(
  '  - id: note-first',
  '    on: PreToolUse',
  '    context: "earlier context stays"',
  '  - id: guard-env',
  '    on: PreToolUse',
  '    paths: { deny: [".env"] }',
  `    ${outcome}`,
  `    ${finalLine}`,
  '  - id: later-context',
  '    on: PreToolUse',
  '    context: "later context"',
  '    record: { kind: seen, text: "{{tool}}" }',
  '  - id: later-ask',
  '    on: PreToolUse',
  '    ask: "sure?"',
));

describe('final', () => {
  test('a final rule that denies stops the chain: later rules add no context, record or ask', async () => {
    const d = await evaluate(chain('final: true'), write, memoryContext());
    expect(d.outcome).toBe('deny');
    expect(d.contexts).toEqual(['earlier context stays']);
    expect(d.records).toBeUndefined();
    expect(d.trace.map((t) => [t.id, t.status, t.failed?.condition])).toEqual([
      ['note-first', 'fired', undefined],
      ['guard-env', 'fired', undefined],
      ['later-context', 'not-matched', 'final'],
      ['later-ask', 'not-matched', 'final'],
    ]);
    expect(d.trace[2].failed?.detail).toBe('not evaluated: rule "guard-env" stopped the chain (final)');
  });

  test('without final, later rules still add their context (002 REQ-HOOK-003 needs final)', async () => {
    const d = await evaluate(chain('log: true'), write, memoryContext());
    expect(d.outcome).toBe('deny');
    expect(d.contexts).toEqual(['earlier context stays', 'later context']);
    expect(d.records).toHaveLength(1);
  });

  test('a final rule that does not fire, or fires without deny or block, stops nothing', async () => {
    const other: HookEvent = { ...write, tool_input: { file_path: '/proj/a.ts' } };
    expect((await evaluate(chain('final: true'), other, memoryContext())).contexts).toEqual(['earlier context stays', 'later context']);
    const warn = await evaluate(chain('final: true', 'warn: "careful"'), write, memoryContext());
    expect(warn.contexts).toEqual(['earlier context stays', 'later context']);
  });

  test('a final block on Stop, after an expression (the asynchronous path)', async () => {
    const policy = compiled(buildRules(
      '  - id: gate',
      '    on: Stop',
      '    when: "$not(stop_hook_active)"',
      '    block: "not yet"',
      '    final: true',
      '  - id: later',
      '    on: Stop',
      '    context: "keep going"',
    ));
    const d = await evaluate(policy, { hook_event_name: 'Stop', stop_hook_active: false }, memoryContext());
    expect(d.outcome).toBe('block');
    expect(d.contexts).toEqual([]);
    expect(d.trace.map((t) => t.status)).toEqual(['fired', 'not-matched']);
  });
});
