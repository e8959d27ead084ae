import { compiled, buildRules, build, lines } from '../compile/test-support';
import { memoryContext } from '../../test/support/memory-facts';
import { evaluate } from '../evaluate';
import type { CompiledPolicy, HookEvent } from '../types';
import { importanceOf, RECORD_FIELD_CHARS, RECORD_TEXT_CHARS } from './record';

const post = (tool: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}): HookEvent =>
  ({ hook_event_name: 'PostToolUse', cwd: '/proj', session_id: 's1', tool_name: tool, tool_input: input, ...extra });

async function decide(policy: CompiledPolicy, event: HookEvent) {
  return evaluate(policy, event, memoryContext());
}

const observe = buildRules(
  '  - id: observe-writes',
  '    on: PostToolUse',
  '    tools: [Write, Edit, Bash]',
  '    record:',
  '      kind: file-change',
  '      importance: 0.7',
  '      text: "{{tool}} {{paths}}"',
  '      fields: { tool: "{{tool}}", paths: "{{paths}}" }',
);

describe('record', () => {
  test('a rule with record alone fires silently: records, no outcome, no hit', async () => {
    const d = await decide(compiled(observe), post('Write', { file_path: '/proj/src/a.ts', content: 'x' }));
    expect(d.outcome).toBe('none');
    expect(d.hits).toEqual([]);
    expect(d.contexts).toEqual([]);
    expect(d.trace.map((t) => [t.id, t.status])).toEqual([['observe-writes', 'fired']]);
    expect(d.records).toEqual([{ rule: 'observe-writes', kind: 'file-change', importance: 0.7, text: 'Write src/a.ts', fields: { tool: 'Write', paths: 'src/a.ts' } }]);
    expect(d.droppedRecords).toBeUndefined();
  });

  test('a rule that does not apply records nothing', async () => {
    const d = await decide(compiled(observe), post('Read', { file_path: '/proj/src/a.ts' }));
    expect(d.records).toBeUndefined();
  });

  test('a rule records and decides at once; a list records each', async () => {
    const policy = compiled(buildRules(
      '  - id: no-env',
      '    on: PreToolUse',
      '    tools: Write',
      '    paths: { deny: ["*.md"] }',
      '    deny: "no {{path}}"',
      '    record:',
      '      - { kind: denied, text: "{{agent}} tried {{path}}", importance: 1 }',
      '      - { kind: "{{tool}}-denied", text: "{{rule}}" }',
    ));
    const d = await decide(policy, { hook_event_name: 'PreToolUse', cwd: '/proj', tool_name: 'Write', tool_input: { file_path: '/proj/a.md' } });
    expect(d.outcome).toBe('deny');
    expect(d.reason).toBe('no a.md');
    expect(d.records).toEqual([
      { rule: 'no-env', kind: 'denied', importance: 1, text: ' tried a.md', fields: {} },
      { rule: 'no-env', kind: 'Write-denied', importance: 0.5, text: 'no-env', fields: {} },
    ]);
  });

  test('text from the agent is rendered once: a placeholder in it stays text', async () => {
    const policy = compiled(buildRules(
      '  - id: cmd',
      '    on: PostToolUse',
      '    tools: Bash',
      '    record: { kind: command, text: "{{command}}", fields: { c: "{{command}}" } }',
    ));
    const command = 'echo {{env.HOME}} {{rule}} }}{{';
    const d = await evaluate(policy, post('Bash', { command }), memoryContext({}, { HOME: '/home/me' }));
    expect(d.records?.[0]).toMatchObject({ text: command, fields: { c: command } });
  });

  test('an oversized text is cut to 4,000 characters, a field to 1,000, never inside a surrogate pair', async () => {
    const policy = compiled(buildRules(
      '  - id: cmd',
      '    on: PostToolUse',
      '    tools: Bash',
      '    record: { kind: command, text: "{{command}}", fields: { c: "{{command}}" } }',
    ));
    const command = `${'x'.repeat(RECORD_FIELD_CHARS - 1)}😀${'y'.repeat(10_000)}`;
    const d = await decide(policy, post('Bash', { command }));
    const r = d.records![0];
    expect(r.text).toHaveLength(RECORD_TEXT_CHARS);
    expect(r.fields.c).toBe('x'.repeat(RECORD_FIELD_CHARS - 1));
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
    expect(JSON.stringify(r)).not.toContain('\n');
  });

  test('a kind that renders empty makes no record', async () => {
    const policy = compiled(buildRules('  - id: r', '    on: Stop', '    record: { kind: "{{team_name}}", text: x }'));
    const d = await decide(policy, { hook_event_name: 'Stop' });
    expect(d.trace[0].status).toBe('fired');
    expect(d.records).toBeUndefined();
  });

  test('records from several rules come in rule order; bypassed rules record nothing', async () => {
    const policy = compiled(build({
      'p.yaml': lines('version: 1', 'include: [b.yaml]', 'rules:', '  - id: second', '    on: Stop', '    record: { kind: b, text: two }'),
      'b.yaml': lines('version: 1', 'settings: { bypass: { env: OFF } }', 'rules:', '  - id: first', '    on: Stop', '    record: { kind: a, text: one }'),
    }));
    expect((await decide(policy, { hook_event_name: 'Stop' })).records?.map((r) => r.text)).toEqual(['one', 'two']);
    const off = await evaluate(policy, { hook_event_name: 'Stop' }, memoryContext({}, { OFF: 'off' }));
    expect(off.records?.map((r) => r.text)).toEqual(['two']);
  });

  test('SessionEnd and PreCompact rules record (the events take no output)', async () => {
    const policy = compiled(buildRules(
      '  - id: end',
      '    on: [SessionEnd, PreCompact]',
      '    record: { kind: "{{event}}", text: "{{reason}}{{trigger}}" }',
    ));
    expect((await decide(policy, { hook_event_name: 'SessionEnd', reason: 'clear' })).records?.[0]).toMatchObject({ kind: 'SessionEnd', text: 'clear' });
    expect((await decide(policy, { hook_event_name: 'PreCompact', trigger: 'auto' })).records?.[0]).toMatchObject({ kind: 'PreCompact', text: 'auto' });
  });
});

describe('importance', () => {
  test.each<[number | string, string | undefined, number]>([
    [0.7, undefined, 0.7],
    ['{{w}}', '0.9', 0.9],
    ['{{w}}', '1.5', 1],
    ['{{w}}', '-2', 0],
    ['{{w}}', 'high', 0.5],
    ['{{w}}', undefined, 0.5],
  ])('%j with %j is %d', (importance, w, expected) => {
    expect(importanceOf(importance, (n) => (n === 'w' ? w : undefined))).toBe(expected);
  });

  test('a templated importance per event', async () => {
    const policy = compiled(buildRules(
      '  - id: r',
      '    on: PostToolUse',
      '    record: { kind: k, text: t, importance: "{{tool_response.weight}}" }',
    ));
    const d = await decide(policy, post('Bash', { command: 'x' }, { tool_response: { weight: 0.25 } }));
    expect(d.records?.[0].importance).toBe(0.25);
  });
});

describe('privacy', () => {
  const rule = (...settings: string[]) => compiled(build({ 'p.yaml': lines('version: 1', ...settings, 'rules:',
    '  - id: cmd',
    '    on: PostToolUse',
    '    tools: Bash',
    '    record: { kind: command, text: "{{command}}", fields: { file: "{{tool_input.file}}" } }') }));

  test.each<[string, Record<string, unknown>, boolean]>([
    ['a text that mentions a password', { command: 'mysql --password=hunter2' }, true],
    ['case does not matter', { command: 'echo $MY_SECRET' }, true],
    ['a glob matches the whole text: *.env at the end', { command: 'cat .env' }, true],
    ['*.env elsewhere is not at the end', { command: 'cat .env | wc' }, false],
    ['a field that matches', { command: 'ls', file: 'config/api_key.txt' }, true],
    ['an ordinary command', { command: 'npm test' }, false],
  ])('default globs: %s', async (_name, input, dropped) => {
    const d = await decide(rule(), post('Bash', input));
    expect(d.records?.length ?? 0).toBe(dropped ? 0 : 1);
    expect(d.droppedRecords).toBe(dropped ? 1 : undefined);
    if (dropped) expect(d.trace[0].dropped).toBe(1);
  });

  test('a match beyond the cut still drops the record', async () => {
    const d = await decide(rule(), post('Bash', { command: `${'a'.repeat(5000)} password` }));
    expect(d.droppedRecords).toBe(1);
  });

  test('privacy: [] turns the filter off; a team list replaces the default', async () => {
    expect((await decide(rule('settings: { memory: { privacy: [] } }'), post('Bash', { command: 'echo password' }))).records).toHaveLength(1);
    const own = rule('settings: { memory: { privacy: ["*internal*"] } }');
    expect((await decide(own, post('Bash', { command: 'echo password' }))).records).toHaveLength(1);
    expect((await decide(own, post('Bash', { command: 'curl INTERNAL.host' }))).droppedRecords).toBe(1);
  });
});
