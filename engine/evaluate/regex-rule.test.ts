import { compiledPolicy, compiledRule, toolFilter } from '../../test/support/compiled';
import { memoryContext } from '../../test/support/memory-facts';
import { evaluate } from '../evaluate';
import type { CompiledLet } from '../types';

describe('policy regexes in rules', () => {
  test('a catastrophic `command` pattern of a deny rule is stopped: the rule answers settings.oversized (ask), with a regex-unsafe warning', async () => {
    const rule = compiledRule({ id: 'nested', tools: toolFilter('Bash'), command: [{ source: '(a+)+$', flags: '', guard: true }] });
    const d = await evaluate(compiledPolicy([rule]), { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: `${'a'.repeat(40)}!` } }, memoryContext());
    expect(d.trace[0].status).toBe('fired');
    expect(d.outcome).toBe('ask');
    expect(d.errors.map((e) => [e.code, e.severity])).toEqual([['regex-unsafe', 'warning']]);
    expect(d.errors[0].message).toMatch(/^rule "nested": \/\(a\+\)\+\$\/ ran longer than 1000 ms .*; the rule answers ask \(settings\.oversized\)$/);
  });

  test('the same pattern on a rule that only warns is a regex-unsafe error (on_error decides)', async () => {
    const rule = compiledRule({ id: 'nested', tools: toolFilter('Bash'), outcome: 'warn', command: [{ source: '(a+)+$', flags: '', guard: true }] });
    const d = await evaluate(compiledPolicy([rule]), { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: `${'a'.repeat(40)}!` } }, memoryContext());
    expect(d.trace[0].status).toBe('error');
    expect(d.errors.map((e) => [e.code, e.severity])).toEqual([['regex-unsafe', 'error']]);
  });

  test('the same pattern decides normally on a text it handles quickly', async () => {
    const rule = compiledRule({ tools: toolFilter('Bash'), command: [{ source: '(a+)+$', flags: '', guard: true }] });
    const d = await evaluate(compiledPolicy([rule]), { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'aaaa' } }, memoryContext());
    expect(d.outcome).toBe('deny');
  });

  test('let.extract keeps its guard when the m flag is added', async () => {
    const gc: CompiledLet = { name: 'v', kind: 'file', target: 'notes.md', extract: { source: '^v=((?:\\w+ ?)+)$', flags: '', guard: true }, field: null, maxBytes: 65536, optional: false };
    const rule = compiledRule({ events: ['Stop'], lets: [gc], outcome: 'block', message: 'v is {{v}}' });
    const d = await evaluate(compiledPolicy([rule]), { hook_event_name: 'Stop' }, memoryContext({ 'notes.md': { content: 'x\nv=alpha beta\n' } }));
    expect(d.reason).toBe('v is alpha beta');
  });
});
