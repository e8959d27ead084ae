/**
 * The examples of docs/language.md's "Memory: record and recall" section (and the rule
 * anatomy under "Rules", and "Patterns in bounded time"), and of test-format.md's
 * "Memory": each builds without an error, and the examples do what the prose says.
 */
import * as fs from 'fs';
import * as path from 'path';
import { memoryContext } from '../test/support/memory-facts';
import { storeContext } from '../test/support/memory-store';
import { yamlBlocks } from '../test/support/doc-sections';
import { buildPolicy } from './build-policy';
import { evaluate } from './evaluate';
import { memoryReader } from './load';
import type { MemorySeed } from './memory/in-memory';
import { lintText } from './lint/fixture';
import { parseSuiteText } from './testing/parse-suite';
import type { CompiledPolicy, HookEvent } from './types';

const DOCS = path.join(__dirname, '..', 'docs');

/** A block as a policy: a list of rules goes under `rules:`. */
function asPolicy(block: string): string {
  if (/^- /m.test(block.split('\n')[0])) return `version: 1\nrules:\n${block.replace(/^/gm, '  ')}`;
  return `version: 1\n${block}`;
}

function build(block: string): CompiledPolicy {
  const result = buildPolicy(['p.yaml'], memoryReader({ 'p.yaml': asPolicy(block) }));
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return result.policy!;
}

describe('docs/language.md, Templates in paths', () => {
  const policy = build(yamlBlocks('language.md', '### Templates in paths')[0]);
  const idle = (teammate: string, team = 't1') => evaluate(policy, { hook_event_name: 'TeammateIdle', cwd: '/proj', team_name: team, teammate_name: teammate }, memoryContext({
    '.agent/teams/t1/tester(1)/L1-index.yaml': { size: 60 },
    '.agent/teams/t1/researcher-1/L1-index.yaml': { size: 60 },
    '.agent/L1-index.yaml': { size: 60 },
  }));

  test.each([['tester(1)', 'none'], ['researcher-1', 'none'], ['*', 'block'], ['researcher-?', 'block'], ['{researcher-1,x}', 'block']])(
    'teammate %s: %s', async (teammate, outcome) => {
      expect((await idle(teammate)).outcome).toBe(outcome);
    },
  );

  test('a team named .. is not a folder name: the rule does not apply', async () => {
    const d = await idle('ba', '..');
    expect(d.trace[0].failed).toEqual({ condition: 'only_if_exists', detail: '{{team_name}} is "..", not one folder name' });
  });
});

const memoryBlocks = yamlBlocks('language.md', '## Memory: record and recall');
/** Every memory example as one policy, so each rule can be tried by id. */
const all = build(memoryBlocks.filter((b) => b.startsWith('- ')).join(''));
const run = (event: HookEvent, seeds: MemorySeed[] = []) => evaluate(all, { session_id: 's1', cwd: '/proj', ...event }, storeContext(seeds));

describe('docs/language.md, Memory', () => {
  test.each(memoryBlocks.map((b, i) => [i, b]))('example %i builds without an error', (_i, block) => {
    build(block as string);
  });

  test('the rule anatomy under Rules builds without an error', () => {
    for (const block of yamlBlocks('language.md', '## Rules').slice(0, 1)) build(block);
  });

  test('observe-writes records a file change, silently', async () => {
    const d = await run({ hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: '/proj/src/a.ts' } });
    expect(d.outcome).toBe('none');
    expect(d.records).toEqual([{ rule: 'observe-writes', kind: 'file-change', importance: 0.7, text: 'Edit src/a.ts', fields: { tool: 'Edit', paths: 'src/a.ts' } }]);
  });

  test('observe-bash and session-end record; SessionEnd answers nothing', async () => {
    const bash = await run({ hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { success: false } });
    expect(bash.records?.map((r) => [r.rule, r.kind, r.text])).toEqual([['observe-bash', 'PostToolUseFailure', 'npm test'], ['count-test-failures', 'test-fail', 'npm test']]);
    const end = await run({ hook_event_name: 'SessionEnd', reason: 'clear' });
    expect(end.records?.map((r) => r.text)).toEqual(['ended: clear']);
    expect(end.outcome).toBe('none');
  });

  // As the real client sends it: a teammate's Edit names it in agent_type; no teammate_name on tool events.
  test('own-section-only judges a teammate by agent_type, as its tool events carry it', async () => {
    const memory = '# Team memory\n\n## researcher-1\nfindings\n\n## implementer-1\nnotes\n';
    const edit = (agent: string, old: string) => evaluate(all, {
      hook_event_name: 'PreToolUse', cwd: '/proj', session_id: 's1', agent_type: agent, agent_id: `a${agent}-1`,
      tool_name: 'Edit', tool_input: { file_path: '/proj/.agent/teams/t1/TEAM-MEMORY.md', old_string: old, new_string: 'x' },
    }, memoryContext({ '.agent/teams/t1/TEAM-MEMORY.md': { content: memory } }));
    const other = await edit('researcher-1', 'notes');
    expect(other.decidedBy.map((h) => h.id)).toEqual(['own-section-only']);
    expect(other.reason).toBe('researcher-1 edits only its own ## researcher-1 section of .agent/teams/t1/TEAM-MEMORY.md.');
    expect((await edit('researcher-1', 'findings')).outcome).toBe('none');
  });

  test('the privacy example is the default', () => {
    expect(build(memoryBlocks.find((b) => b.includes('privacy:'))!).settings.memory?.privacy).toEqual(all.settings.memory?.privacy);
  });

  test('recent-sessions and related-memory give the seed\'s lines', async () => {
    const seeds: MemorySeed[] = [
      { kind: 'summary', text: 'JWT 인증 미들웨어 구현 완료', session: 'a', at: '2026-01-15T08:00:00Z' },
      { kind: 'summary', text: '사용자 모델 스키마 정의', session: 'b', at: '2026-01-14T08:00:00Z' },
    ];
    const start = await run({ hook_event_name: 'SessionStart', source: 'startup' }, seeds);
    expect(start.contexts).toEqual(['📝 이전 세션 컨텍스트:\n- [1/15] JWT 인증 미들웨어 구현 완료\n- [1/14] 사용자 모델 스키마 정의']);
    const prompt = await run({ hook_event_name: 'UserPromptSubmit', prompt: 'JWT 인증' }, seeds);
    expect(prompt.warnings).toEqual(['🔍 관련 메모리 발견:\n- JWT 인증 미들웨어 구현 완료 (1/15, relevance: 1.00) #1\n상세 조회: /mem-search <id>']);
  });

  test('own-section-only: a teammate edits its own section only', async () => {
    const ctx = storeContext([], { files: { 'TEAM-MEMORY.md': { content: '## Lead\nplan\n## ba\nvan notes\n## murdock\ntest notes\n' } } });
    const edit = (teammate: string | undefined, old: string) => evaluate(all, {
      hook_event_name: 'PreToolUse', cwd: '/proj', ...(teammate ? { teammate_name: teammate } : {}),
      tool_name: 'Edit', tool_input: { file_path: '/proj/TEAM-MEMORY.md', old_string: old, new_string: 'x' },
    }, ctx);
    expect((await edit('ba', 'van notes')).outcome).toBe('none');
    expect((await edit('ba', 'test notes')).outcome).toBe('deny');
    expect((await edit('lynch', 'plan')).outcome).toBe('deny');
    expect((await edit(undefined, 'plan')).outcome).toBe('none');
  });

  test('session state: three failed test runs block Stop, the guard lets Claude stop', async () => {
    const fails: MemorySeed[] = [1, 2, 3].map((n) => ({ kind: 'test-fail', text: `run ${n}` }));
    const stop = (extra: Record<string, unknown>, seeds: MemorySeed[]) => run({ hook_event_name: 'Stop', stop_hook_active: false, ...extra }, seeds);
    const blocked = await stop({}, fails);
    expect(blocked.outcome).toBe('block');
    expect(blocked.reason).toBe('3 test runs failed in this session. Fix them before stopping.');
    expect(blocked.records?.map((r) => r.kind)).toEqual(['stop-blocked']);
    expect((await stop({}, fails.slice(1))).outcome).toBe('none');
    expect((await stop({ stop_hook_active: true }, fails)).outcome).toBe('none');
    const blocks: MemorySeed[] = [1, 2, 3].map((n) => ({ kind: 'stop-blocked', text: `${n}`, at: `-${n * 10}m` }));
    expect((await stop({}, [...fails, ...blocks])).outcome).toBe('none');
    expect((await stop({}, [...fails, ...blocks.map((b) => ({ ...b, at: '-2h' }))])).outcome).toBe('block');
  });

  test('summaries: at the end of a session, and every 30 minutes on the first prompt after', async () => {
    const end = await run({ hook_event_name: 'SessionEnd', reason: 'logout' }, [{ kind: 'file-change', text: 'Write a.ts', fields: { paths: 'a.ts' } }]);
    expect(end.records?.filter((r) => r.kind === 'summary').map((r) => r.text)).toEqual(['1 file changed (a.ts)']);
    const prompt = (seeds: MemorySeed[]) => run({ hook_event_name: 'UserPromptSubmit', prompt: 'go on' }, seeds);
    const interim = (d: Awaited<ReturnType<typeof prompt>>) => d.records?.filter((r) => r.rule === 'interim-summary').map((r) => r.text) ?? [];
    const work: MemorySeed = { kind: 'command', text: 'npm test', fields: { command: 'npm test' }, at: '-40m' };
    expect(interim(await prompt([work]))).toEqual(['1 command (npm test)']);
    expect(interim(await prompt([{ ...work, at: '-20m' }]))).toEqual([]);
    expect(interim(await prompt([work, { kind: 'summary', text: 'earlier', at: '-10m' }]))).toEqual([]);
    expect(interim(await prompt([work, { kind: 'summary', text: 'earlier', at: '-35m' }]))).toEqual(['1 command (npm test)']);
  });

  test('across a compaction: recorded on PreCompact, given back on SessionStart (compact)', async () => {
    const pre = await run({ hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: 'keep the API plan' });
    expect(pre.records?.map((r) => r.text)).toEqual(['manual compaction; instructions: keep the API plan']);
    const start = await run({ hook_event_name: 'SessionStart', source: 'compact' }, [
      { kind: 'pre-compact', text: pre.records![0].text, at: '-1m' },
      { kind: 'file-change', text: 'Edit src/a.ts', fields: { paths: 'src/a.ts' } },
    ]);
    expect(start.contexts).toEqual(['Before compaction: manual compaction; instructions: keep the API plan. This session so far: 1 file changed (src/a.ts)']);
  });
});

describe('docs/test-format.md, Memory', () => {
  test('its suite example is valid', () => {
    const [example] = yamlBlocks('test-format.md', '### Memory');
    const parsed = parseSuiteText('/proj/t.test.yaml', example);
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.suite?.memory).toHaveLength(2);
  });

  test('its expect example is valid', () => {
    const block = yamlBlocks('test-format.md', '## Expectations').find((b) => b.includes('records:'))!;
    const suite = `cases:\n  - name: x\n    event: { event: Stop }\n${block.replace(/^/gm, '    ')}`;
    expect(parseSuiteText('/proj/t.test.yaml', suite).diagnostics).toEqual([]);
  });
});

describe('docs/language.md, Patterns in bounded time', () => {
  const [block] = yamlBlocks('language.md', '## Patterns in bounded time');
  const policy = asPolicy(block);
  const line = (text: string) => policy.split('\n').findIndex((l) => l.includes(text)) + 1;

  test('lint marks the glob and the regex literal where they are written', () => {
    const found = lintText(policy).filter((d) => d.code === 'regex-unsafe').map((d) => [d.line, d.severity, d.message]);
    expect(found).toEqual([
      [line('**/a*a*a*a*b/**'), 'warning', expect.stringMatching(/^Rule "no-ab-folders": the regex of glob "\*\*\/a\*a\*a\*a\*b\/\*\*" can backtrack catastrophically .*linear-time matcher/)],
      [line('(\\w+\\s?)*'), 'warning', expect.stringMatching(/^Rule "no-repeated-words": \/\^\(\\w\+\\s\?\)\*\$\/ can backtrack catastrophically .*watchdog/)],
    ]);
  });

  test('on events crafted against them, the glob answers exactly and the regex is stopped', async () => {
    const compiled = build(block);
    const ctx = memoryContext({}, {}, Date.now);
    const started = Date.now();
    const write = (file_path: string) => evaluate(compiled, { hook_event_name: 'PreToolUse', cwd: '/proj', tool_name: 'Write', tool_input: { file_path, content: 'x' } }, ctx);
    expect((await write(`${'a'.repeat(3000)}/aaaab/x`)).outcome).toBe('deny');
    expect((await write(`${'a'.repeat(3000)}/x`)).outcome).toBe('none');
    const bash = await evaluate(compiled, { hook_event_name: 'PreToolUse', cwd: '/proj', tool_name: 'Bash', tool_input: { command: `${'word '.repeat(30)}!` } }, ctx);
    expect(bash.outcome).toBe('ask');
    expect(bash.warnings.concat(bash.errors.map((e) => e.message)).join('\n')).toMatch(/regex-unsafe|was stopped/);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
