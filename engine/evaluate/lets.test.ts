import { compiledPolicy, compiledRule } from '../../test/support/compiled';
import { memoryContext, type MemoryFile } from '../../test/support/memory-facts';
import { evaluate } from '../evaluate';
import type { CompiledLet, HookEvent } from '../types';

function letOf(partial: Partial<CompiledLet> & Pick<CompiledLet, 'name' | 'kind' | 'target'>): CompiledLet {
  return { extract: null, field: null, maxBytes: 65536, optional: false, ...partial };
}

const files: Record<string, MemoryFile> = {
  '.agent/teams/a/global-context.md': { content: 'title: A\nversion: 3\n', mtimeMs: 10 },
  '.agent/teams/b/global-context.md': { content: 'title: B\nversion: 7\n', mtimeMs: 20 },
  '.agent/teams/c/global-context.md': { content: 'title: C\nversion: 9\n', mtimeMs: 20 },
  'package.json': { content: JSON.stringify({ version: '1.2.3', engines: { node: '>=20' }, n: 4 }) },
  'notes/b.md': { content: 'note for b' },
  'notes/c.md': { content: 'note for c' },
  'big.txt': { content: 'x'.repeat(20_000) },
};

const event: HookEvent = { hook_event_name: 'Stop', team_name: 't1' };

async function messageWith(lets: CompiledLet[], message: string, ev: HookEvent = event) {
  const rule = compiledRule({ events: ['Stop'], outcome: 'block', lets, message });
  const decision = await evaluate(compiledPolicy([rule]), ev, memoryContext(files));
  return { decision, trace: decision.trace[0] };
}

describe('let', () => {
  test.each<[string, CompiledLet[], string, string]>([
    ['newest with extract; ties go to path order',
      [letOf({ name: 'gc', kind: 'newest', target: '.agent/teams/*/global-context.md', extract: { source: '^version:\\s*(\\S+)', flags: '' } })],
      '{{gc}} {{gc.path}} {{gc.dir}} {{gc.file}}', '7 .agent/teams/b/global-context.md b global-context.md'],
    ['newest without extract is the content',
      [letOf({ name: 'gc', kind: 'newest', target: '.agent/teams/a/*.md' })], '[{{gc}}]', '[title: A\nversion: 3\n]'],
    ['extract without a group keeps the whole match',
      [letOf({ name: 'v', kind: 'file', target: '.agent/teams/a/global-context.md', extract: { source: '^version: \\d', flags: '' } })],
      '{{v}}', 'version: 3'],
    ['file with field', [letOf({ name: 'node', kind: 'file', target: 'package.json', field: 'engines.node' })], '{{node}}', '>=20'],
    ['field of a number or object is text',
      [letOf({ name: 'n', kind: 'file', target: 'package.json', field: 'n' }), letOf({ name: 'e', kind: 'file', target: 'package.json', field: 'engines' })],
      '{{n}} {{e}}', '4 {"node":">=20"}'],
    ['a later let uses an earlier one',
      [letOf({ name: 'gc', kind: 'newest', target: '.agent/teams/*/global-context.md' }), letOf({ name: 'note', kind: 'file', target: 'notes/{{gc.dir}}.md' })],
      '{{note}}', 'note for b'],
    ['expr', [letOf({ name: 'count', kind: 'expr', target: '$count($paths) + 1' })], '{{count}}', '1'],
    ['expr with extract', [letOf({ name: 't', kind: 'expr', target: 'team_name', extract: { source: '\\d+', flags: '' } })], '{{t}}', '1'],
    ['max_bytes limits the read', [letOf({ name: 'b', kind: 'file', target: 'big.txt', maxBytes: 5 })], '{{b}}', 'xxxxx'],
    ['optional missing file gives an empty value',
      [letOf({ name: 'x', kind: 'file', target: 'nope.md', optional: true })], '[{{x}}][{{x.path}}]', '[][]'],
    ['optional failed extract keeps the file sub-fields',
      [letOf({ name: 'x', kind: 'file', target: 'notes/c.md', extract: { source: 'zzz', flags: '' }, optional: true })],
      '[{{x}}][{{x.file}}]', '[][c.md]'],
  ])('%s', async (_name, lets, message, expected) => {
    const { decision } = await messageWith(lets, message);
    expect(decision.errors).toEqual([]);
    expect(decision.reason).toBe(expected);
  });

  test.each<[string, CompiledLet, HookEvent, string | null]>([
    ['a newest glob takes a value as the name it is',
      letOf({ name: 'n', kind: 'newest', target: 'notes/{{team_name}}.md' }), { ...event, team_name: '*' }, null],
    ['a newest glob matches the named file only',
      letOf({ name: 'n', kind: 'newest', target: 'notes/{{team_name}}*.md' }), { ...event, team_name: '{b,c}' }, null],
    ['{{glob:name}} reads the value as a pattern',
      letOf({ name: 'n', kind: 'newest', target: 'notes/{{glob:team_name}}.md' }), { ...event, team_name: '*' }, 'note for b'],
    ['a file let does not leave its folder',
      letOf({ name: 'n', kind: 'file', target: 'notes/{{team_name}}' }), { ...event, team_name: '../package.json' }, null],
  ])('%s', async (_name, l, ev, expected) => {
    const { decision, trace } = await messageWith([l], '{{n}}', ev);
    expect(decision.reason).toBe(expected);
    if (expected === null) expect(trace.status).toBe('not-matched');
  });

  test('values are cut to 10,000 characters and recorded in the trace', async () => {
    const { decision, trace } = await messageWith([letOf({ name: 'b', kind: 'file', target: 'big.txt' })], 'ok');
    expect(decision.outcome).toBe('block');
    expect(trace.values?.b).toHaveLength(10_000);
    expect(trace.values?.['b.path']).toBe('big.txt');
  });

  test.each<[string, CompiledLet, string]>([
    ['no file matches', letOf({ name: 'gc', kind: 'newest', target: 'docs/*.md' }), 'let gc: no file matches docs/*.md'],
    ['file missing', letOf({ name: 'f', kind: 'file', target: 'nope.md' }), 'let f: nope.md does not exist or cannot be read'],
    ['not JSON', letOf({ name: 'f', kind: 'file', target: 'notes/c.md', field: 'a' }), 'let f: notes/c.md is not JSON'],
    ['no such field', letOf({ name: 'f', kind: 'file', target: 'package.json', field: 'engines.npm' }), 'let f: package.json has no field engines.npm'],
    ['extract finds nothing', letOf({ name: 'f', kind: 'file', target: 'notes/c.md', extract: { source: '^v(\\d)', flags: '' } }),
      'let f: /^v(\\d)/ matches no line of notes/c.md'],
    ['template without value', letOf({ name: 'f', kind: 'file', target: 'notes/{{teammate_name}}.md' }), 'let f: no value for {{teammate_name}}'],
    ['expr without value', letOf({ name: 'e', kind: 'expr', target: 'nothing.here' }), 'let e: the expression has no value'],
  ])('a value that cannot be computed skips the rule: %s', async (_name, l, detail) => {
    const { decision, trace } = await messageWith([l], 'm');
    expect(decision.outcome).toBe('none');
    expect(trace.status).toBe('not-matched');
    expect(trace.failed).toEqual({ condition: 'let', detail });
  });

  test('an expr let that throws is an expression-error', async () => {
    const { decision, trace } = await messageWith([letOf({ name: 'e', kind: 'expr', target: '$error("bad let")' })], 'm');
    expect(trace.status).toBe('error');
    expect(decision.errors.map((e) => e.code)).toEqual(['expression-error']);
  });
});
