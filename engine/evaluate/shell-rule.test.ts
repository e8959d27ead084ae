import { compiledPolicy, compiledRule, pathFilter, toolFilter } from '../../test/support/compiled';
import { memoryContext } from '../../test/support/memory-facts';
import { buildPolicy } from '../build-policy';
import { evaluate } from '../evaluate';
import { memoryReader } from '../load/memory-reader';
import type { CompiledRule, HookEvent } from '../types';

function bash(command: string, cwd = '/proj', tool = 'Bash'): HookEvent {
  return { hook_event_name: 'PreToolUse', cwd, tool_name: tool, tool_input: { command } };
}

async function decide(rules: CompiledRule[], event: HookEvent, symlinks: Record<string, string> = {}) {
  return evaluate(compiledPolicy(rules), event, memoryContext({}, { HOME: '/home/u' }, undefined, symlinks));
}

const denySrc = () => compiledRule({ id: 'no-src', tools: toolFilter('Bash|Write'), paths: pathFilter({ deny: ['src/**'] }), message: 'no {{path}}' });
const testsOnly = () => compiledRule({ id: 'tests-only', tools: toolFilter('Bash'), paths: pathFilter({ allow: ['**/*.test.ts', 'tmp/**'] }), message: '{{path}} is not a test' });

describe('Bash under paths: judged by the files the command writes', () => {
  test.each<[string, string, string | null]>([
    // command, final outcome, reason
    ['echo x > src/app.ts', 'deny', 'no src/app.ts'],
    ['cat <<EOF > src/notes.md\nhi\nEOF', 'deny', 'no src/notes.md'],
    ['echo x | tee -a src/log.txt', 'deny', 'no src/log.txt'],
    ['cp a src/b', 'deny', 'no src/b'],
    ['mv -t src a b', 'deny', 'no src/a'],
    ["sed -i 's/a/b/' src/f", 'deny', 'no src/f'],
    ['rm -rf src', 'deny', 'no src'],
    ['cd src && touch x', 'deny', 'no src/x'],
    ["bash -c 'echo > src/f'", 'deny', 'no src/f'],
    ['echo $(echo > src/f)', 'deny', 'no src/f'],
    ['echo x > SRC/App.ts', 'deny', 'no SRC/App.ts'],
    ['cat src/app.ts', 'none', null],
    ["echo '> src/app.ts'", 'none', null],
    ['ls src 2>&1 >/dev/null', 'none', null],
    ['echo x > lib/a.ts', 'none', null],
  ])('%s -> %s', async (command, outcome, reason) => {
    const decision = await decide([denySrc()], bash(command));
    expect({ outcome: decision.outcome, reason: decision.reason }).toEqual({ outcome, reason });
  });

  test('allow lists: every written path must be inside', async () => {
    expect((await decide([testsOnly()], bash('echo x > a.test.ts && touch tmp/x'))).outcome).toBe('none');
    const d = await decide([testsOnly()], bash('echo x > a.test.ts && touch README.md'));
    expect({ outcome: d.outcome, reason: d.reason, paths: d.hits[0].paths }).toEqual({ outcome: 'deny', reason: 'README.md is not a test', paths: ['README.md'] });
    expect((await decide([testsOnly()], bash('echo x > /tmp/x'))).outcome).toBe('deny');
  });

  test('a command that writes nothing does not reach the rule', async () => {
    const d = await decide([testsOnly()], bash('git status'));
    expect(d.trace[0]).toMatchObject({ status: 'not-matched', failed: { condition: 'paths', detail: 'the command writes no file' }, values: { 'shell.writes': '' } });
  });

  test('the trace shows what was extracted', async () => {
    const d = await decide([denySrc()], bash('cd src && cp a b && echo > ../out.txt'));
    expect(d.trace[0].values).toEqual({ 'shell.writes': 'src/b, out.txt' });
    expect(d.hits[0].paths).toEqual(['src/b']);
  });

  test('a rule with paths but without Bash in its tools ignores Bash', async () => {
    const writeOnly = compiledRule({ tools: toolFilter('Write'), paths: pathFilter({ deny: ['src/**'] }) });
    const anyTool = compiledRule({ paths: pathFilter({ deny: ['src/**'] }) });
    const d = await decide([writeOnly, anyTool], bash('echo x > src/app.ts'));
    expect(d.outcome).toBe('none');
    // writeOnly is not even a candidate for Bash; anyTool sees no touched path.
    expect(d.trace.map((t) => [t.id, t.failed?.detail])).toEqual([[anyTool.id, 'the tool touches no path']]);
  });

  test('{{paths}} lists the written paths', async () => {
    const rule = compiledRule({ tools: toolFilter('Bash'), paths: pathFilter({ deny: ['**'] }), message: '{{paths}}' });
    expect((await decide([rule], bash('touch a b'))).reason).toBe('a, b');
  });
});

describe('commands that cannot be checked', () => {
  const cases: Array<[string, CompiledRule['unparsable'], string]> = [
    ['missing: ask', undefined, 'ask'],
    ['deny', 'deny', 'deny'],
    ['ask', 'ask', 'ask'],
    ['allow', 'allow', 'allow'],
    ['ignore', 'ignore', 'none'],
  ];
  test.each(cases)('unparsable %s', async (_name, unparsable, outcome) => {
    const rule = compiledRule({ id: 'tests-only', tools: toolFilter('Bash'), paths: pathFilter({ allow: ['**/*.test.ts'] }), ...(unparsable ? { unparsable } : {}) });
    const d = await decide([rule], bash('echo x > $F'));
    expect(d.outcome).toBe(outcome);
    if (outcome !== 'none') {
      expect(d.reason).toBe('Cannot tell which files this Bash command writes (> writes to a path that is not static), so rule "tests-only" cannot check it against its paths.');
    } else {
      expect(d.trace[0].failed).toEqual({ condition: 'paths', detail: 'the command cannot be checked (> writes to a path that is not static); the rule has unparsable: ignore' });
    }
    expect(d.trace[0].values).toEqual({ 'shell.writes': '', 'shell.unchecked': '> writes to a path that is not static' });
  });

  test('a known write that is caught decides with the rule\'s own outcome', async () => {
    const d = await decide([denySrc()], bash('echo x > src/a.ts; echo y > $F'));
    expect({ outcome: d.outcome, reason: d.reason }).toEqual({ outcome: 'deny', reason: 'no src/a.ts' });
  });

  test('PowerShell commands are not parsed: the unparsable outcome applies', async () => {
    const rule = compiledRule({ id: 'ps', tools: toolFilter('Bash|PowerShell'), paths: pathFilter({ deny: ['src/**'] }) });
    const d = await decide([rule], bash('Get-ChildItem', '/proj', 'PowerShell'));
    expect(d.outcome).toBe('ask');
    expect(d.reason).toMatch(/PowerShell command writes \(PowerShell commands are not parsed\)/);
  });

  test('other conditions still apply before the unparsable outcome', async () => {
    const rule = compiledRule({ tools: toolFilter('Bash'), agents: ['murdock'], paths: pathFilter({ deny: ['src/**'] }) });
    expect((await decide([rule], bash('echo x > $F'))).outcome).toBe('none');
  });
});

describe('an allow rule approves a call only when its paths cover every path the call touches', () => {
  // unparsable: ignore is what the compiler gives an allow rule that does not set it.
  const approve = () => compiledRule({ id: 'approve-allowed', tools: toolFilter('Bash|Write'), paths: pathFilter({ deny: ['allowed/**'] }), outcome: 'allow', message: 'inside allowed/', unparsable: 'ignore' });

  test.each<[string, string]>([
    ['mkdir -p allowed/sub && echo a > allowed/c.txt', 'allow'],
    ['mkdir -p allowed/sub && echo a > allowed/c.txt && echo b > outside.txt', 'none'],
    ['echo a > allowed/c.txt; npm test', 'none'],
    ['echo a > allowed/c.txt; echo b > $F', 'none'],
    ['cat allowed/c.txt', 'none'],
  ])('%s -> %s', async (command, outcome) => {
    expect((await decide([approve()], bash(command))).outcome).toBe(outcome);
  });

  test('the trace says which path was not covered', async () => {
    const d = await decide([approve()], bash('echo a > allowed/c.txt && echo b > outside.txt'));
    expect(d.trace[0].failed).toEqual({ condition: 'paths', detail: 'an allow rule approves only when its paths cover every touched path, and outside.txt is not covered' });
  });

  test('a write through a symlink out of the covered folder is not approved', async () => {
    expect((await decide([approve()], bash('echo a > allowed/link/x'), { 'allowed/link': '/etc' })).outcome).toBe('none');
  });

  test('the Write tool too', async () => {
    const write = (file: string): HookEvent => ({ hook_event_name: 'PreToolUse', cwd: '/proj', tool_name: 'Write', tool_input: { file_path: file } });
    expect((await decide([approve()], write('allowed/a.md'))).outcome).toBe('allow');
    expect((await decide([approve()], write('ALLOWED/a.md'))).outcome).toBe('none');
  });

  test('for the log, the decision lists every path the call touches, not only the caught ones', async () => {
    const rule = compiledRule({ id: 'no-outside', tools: toolFilter('Bash'), paths: pathFilter({ deny: ['outside.txt'] }) });
    const log = { file: 'log.jsonl', webhook: null, record: ['deny'] };
    const d = await evaluate(compiledPolicy([rule], { log }), bash('echo a > allowed/c.txt && echo b > outside.txt'), memoryContext());
    expect({ outcome: d.outcome, hit: d.hits[0].paths, paths: d.paths }).toEqual({ outcome: 'deny', hit: ['outside.txt'], paths: ['allowed/c.txt', 'outside.txt'] });
    // A policy that logs nothing does not analyse a command only for the log.
    const regexRule = compiledRule({ id: 'no-rm', tools: toolFilter('Bash'), command: [{ source: 'rm', flags: '' }] });
    expect((await evaluate(compiledPolicy([regexRule]), bash('rm "$X"'), memoryContext())).paths).toBeUndefined();
  });

  test('every recorded decision lists the written paths, whatever its outcome; one the log skips is not analysed', async () => {
    const rule = compiledRule({ id: 'no-src', tools: toolFilter('Bash'), paths: pathFilter({ deny: ['src/**'] }), bypasses: [0] });
    const bypasses = [{ env: 'GUARD', values: ['off'], source: { file: 'policy.yaml', line: 1, column: 1 } }];
    const command = bash('echo a > src/a.ts && cp src/a.ts docs/b.md');
    const logged = (record: string[]) => compiledPolicy([rule], { log: { file: 'log.jsonl', webhook: null, record }, bypasses });
    // Bypassed: no rule fired, yet the record says what the command writes (before: []).
    const off = await evaluate(logged(['bypass']), command, memoryContext({}, { GUARD: 'off' }));
    expect({ outcome: off.outcome, bypass: off.bypass?.rules, paths: off.paths }).toEqual({ outcome: 'none', bypass: ['no-src'], paths: ['src/a.ts', 'docs/b.md'] });
    // Nothing fired, and log.record asks for such decisions too.
    const quiet = await evaluate(logged(['none']), bash('echo a > lib/a.ts'), memoryContext());
    expect({ outcome: quiet.outcome, paths: quiet.paths }).toEqual({ outcome: 'none', paths: ['lib/a.ts'] });
    // The same decision with a log.record that skips it: the command is not analysed for the log.
    expect((await evaluate(logged(['deny']), bash('echo a > "$X"'), memoryContext({}, { GUARD: 'off' }))).paths).toBeUndefined();
  });
});

describe('commands whose effect is not known are not checkable', () => {
  test.each([['npm test'], ['make build'], ['git checkout main'], ['gzip src/a.ts'], ['./deploy.sh']])('%s asks under a deny rule', async (command) => {
    const d = await decide([denySrc()], bash(command));
    expect(d.outcome).toBe('ask');
    expect(d.reason).toMatch(/^Cannot tell which files this Bash command writes \(.*(not a command whose writes are known|git checkout|runs the program)/);
  });

  test('a known read-only command writes nothing', async () => {
    expect((await decide([denySrc()], bash('git diff && grep -rn TODO src | head'))).outcome).toBe('none');
  });
});

describe('settings.known_commands: commands the team trusts', () => {
  const policy = [
    'version: 1',
    'settings:',
    '  known_commands: ["npm test", "npx jest", make]',
    'rules:',
    '  - id: no-src',
    '    on: PreToolUse',
    '    tools: Bash',
    '    paths: { deny: ["src/**"] }',
    '    deny: "no {{path}}"',
    '',
  ].join('\n');
  const built = buildPolicy(['p.yaml'], memoryReader({ 'p.yaml': policy }));

  test('compile to their first words', () => {
    expect(built.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(built.policy?.settings.knownCommands).toEqual([['npm', 'test'], ['npx', 'jest'], ['make']]);
  });

  test.each<[string, string]>([
    ['npm test', 'none'],
    ['npm test -- --watch=false', 'none'],
    ['npx jest src && make', 'none'],
    ['npm install', 'ask'],
    ['npx prettier --write src', 'ask'],
    // the writes the analysis sees are still judged
    ['npm test > src/out.txt', 'deny'],
    ['make && rm src/a.ts', 'deny'],
  ])('%s -> %s', async (command, outcome) => {
    expect((await evaluate(built.policy!, bash(command), memoryContext())).outcome).toBe(outcome);
  });

  test('a schema error for an entry that is not text', () => {
    const bad = buildPolicy(['p.yaml'], memoryReader({ 'p.yaml': 'version: 1\nsettings:\n  known_commands: [" "]\n' }));
    expect(bad.diagnostics.map((d) => d.code)).toContain('schema-invalid');
  });
});

describe('symlinks and path tricks in shell writes', () => {
  test('a write through a symlinked folder is judged where it lands', async () => {
    const d = await decide([testsOnly()], bash('echo x > tmp/link/a.test.ts'), { 'tmp/link': '/etc' });
    expect(d.outcome).toBe('deny');
  });
  test('a write to a symlink into a denied folder is caught', async () => {
    const d = await decide([denySrc()], bash('echo x > docs/alias.ts'), { 'docs/alias.ts': 'src/app.ts' });
    expect(d.outcome).toBe('deny');
  });
});

describe('the shell parser is loaded only when needed', () => {
  test('not for other tools, rules without paths, or commands the fast path reads', async () => {
    // Async isolation: the evaluator requires the shell analysis lazily, inside the awaited calls.
    await jest.isolateModulesAsync(async () => {
      const isolated = jest.requireActual<typeof import('../evaluate')>('../evaluate').evaluate;
      const loaded = jest.requireActual<typeof import('./shell/parser')>('./shell/parser').isShellSyntaxLoaded;
      const commandRule = compiledRule({ tools: toolFilter('Bash'), command: [{ source: 'rm', flags: '' }] });
      const policy = compiledPolicy([denySrc(), commandRule]);
      const ctx = memoryContext();
      await isolated(policy, { hook_event_name: 'PreToolUse', cwd: '/proj', tool_name: 'Write', tool_input: { file_path: 'src/a' } }, ctx);
      await isolated(compiledPolicy([commandRule]), bash('echo "$X" > src/a.ts'), ctx);
      await isolated(policy, bash('git status && npm test'), ctx);
      expect((await isolated(policy, bash('echo x > src/a.ts'), ctx)).outcome).toBe('deny');
      expect((await isolated(policy, bash("cat <<'EOF' > src/a.ts\nexport {};\nEOF"), ctx)).outcome).toBe('deny');
      expect((await isolated(policy, bash('git commit -m "fix: x" 2>&1 | tail -3'), ctx)).outcome).not.toBe('deny');
      expect(loaded()).toBe(false);
      expect((await isolated(policy, bash('echo "$X" > src/a.ts'), ctx)).outcome).toBe('deny');
      expect(loaded()).toBe(true);
    });
  });
});
