import { compiledPolicy, compiledRule, toolFilter } from '../../test/support/compiled';
import { memoryContext } from '../../test/support/memory-facts';
import { evaluate } from '../evaluate';
import type { CompiledLet } from '../types';

describe('policy regexes in rules', () => {
  test('a catastrophic `command` pattern answers (no match) instead of hanging', async () => {
    const rule = compiledRule({ tools: toolFilter('Bash'), command: [{ source: '(a+)+$', flags: '' }] });
    const d = await evaluate(compiledPolicy([rule]), { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: `${'a'.repeat(40)}!` } }, memoryContext());
    expect(d.outcome).toBe('none');
    expect(d.trace[0].failed?.condition).toBe('command');
  });

  test('a flagged pattern with a backreference is a rule error', async () => {
    const rule = compiledRule({ id: 'dup', tools: toolFilter('Bash'), command: [{ source: '(\\w+)+ \\1', flags: '' }] });
    const d = await evaluate(compiledPolicy([rule]), { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm rm' } }, memoryContext());
    expect(d.trace[0].status).toBe('error');
    expect(d.errors.map((e) => e.code)).toEqual(['internal-error']);
    expect(d.errors[0].message).toMatch(/^rule "dup": \/\(\\w\+\)\+ \\1\/ cannot run safely/);
  });

  test('let.extract runs on the linear engine for flagged patterns', async () => {
    const gc: CompiledLet = { name: 'v', kind: 'file', target: 'notes.md', extract: { source: '^v=((?:\\w+ ?)+)$', flags: '' }, field: null, maxBytes: 65536, optional: false };
    const rule = compiledRule({ events: ['Stop'], lets: [gc], outcome: 'block', message: 'v is {{v}}' });
    const exec = jest.spyOn(RegExp.prototype, 'exec');
    try {
      const d = await evaluate(compiledPolicy([rule]), { hook_event_name: 'Stop' }, memoryContext({ 'notes.md': { content: 'x\nv=alpha beta\n' } }));
      expect(d.reason).toBe('v is alpha beta');
      expect(exec.mock.calls.some(([text]) => text === 'x\nv=alpha beta\n')).toBe(false);
    } finally {
      exec.mockRestore();
    }
  });
});
