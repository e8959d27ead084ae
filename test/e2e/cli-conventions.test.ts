/**
 * The conventions the CLI shares with ESLint and its ecosystem, through the built CLI
 * (node bin/policy.cjs): exit codes, colour, --quiet, --output-file, and what `policy
 * lint` reads.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { makeProject, REPO_ROOT, type TempProject } from '../support/run-hook';
import { ANSI, HAS_TERMINAL, runCli, runCliInTerminal } from '../support/run-cli';
import { sarifValidator } from '../support/sarif-schema';
import { parseXml } from '../support/xml';

const LINT_FIXTURES = path.join(REPO_ROOT, 'fixtures', 'lint');
const BAD = path.join(LINT_FIXTURES, 'bad');
const SUITES = 'fixtures/test-suites';
const RED_ERROR = '\u001b[31merror\u001b[39m';
const GREEN_TICK = '\u001b[32m✓\u001b[39m';

describe('exit codes: 0 ok, 1 problems found, 2 usage or internal error', () => {
  it('exits 2 on an unknown command, with a usage message', () => {
    const run = runCli(['bogus'], { cwd: REPO_ROOT });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain("error: unknown command 'bogus'");
    expect(run.stderr).toContain('(add --help for usage)');
  });

  it('exits 2 without a command, with the usage on stderr', () => {
    const run = runCli([], { cwd: REPO_ROOT });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Usage: policy [options] [command]');
  });

  it.each([
    ['test', '--bogus'],
    ['version', '--bogus'],
    ['lint', '--bogus'],
  ])('exits 2 on an unknown option of %s', (...args) => {
    const run = runCli(args, { cwd: REPO_ROOT });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("error: unknown option '--bogus'");
  });

  it.each([
    [['serve', '--port', '0x1f'], 'policy serve: --port must be a number from 0 to 65535, not 0x1f'],
    [['serve', '--port', ''], 'policy serve: --port must be a number from 0 to 65535, not '],
    [['serve', '--ensure', '--port', '8707', '--idle', '1e3'], 'policy serve: --idle must be a number of seconds, not 1e3'],
    [['serve', '--ensure', '--port', ' 8707'], 'policy serve: --port must be a number from 0 to 65535, not  8707'],
    [['init', '--port', '8.707e3'], 'policy: --port must be a number from 1 to 65535, not 8.707e3'],
  ])('exits 2 on a port or a number of seconds written otherwise than in digits: %j', (args, message) => {
    // In an empty folder: a command that took its arguments would start a server or install hooks.
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-values-'));
    const run = runCli(args, { cwd });
    fs.rmSync(cwd, { recursive: true, force: true });
    expect([run.code, run.stderr.split('\n')[0]]).toEqual([2, message]);
  });

  it('exits 0 for --help and --version', () => {
    expect(runCli(['--help'], { cwd: REPO_ROOT }).code).toBe(0);
    expect(runCli(['--version'], { cwd: REPO_ROOT }).code).toBe(0);
  });

  it('exits 1 when lint finds problems, 0 when it finds none', () => {
    expect(runCli(['lint'], { cwd: path.join(LINT_FIXTURES, 'bad') }).code).toBe(1);
    expect(runCli(['lint'], { cwd: path.join(LINT_FIXTURES, 'clean') }).code).toBe(0);
  });
});

describe('policy hook: a usage error in its command line', () => {
  const usage = "policy hook: unknown option '--bogus' (usage: policy hook [--config FILE]... [--on-error open|closed] [--host claude|codex|gemini])";
  let p: TempProject;
  beforeAll(() => {
    p = makeProject('version: 1\nrules:\n  - id: no-rm\n    on: PreToolUse\n    tools: Bash\n    command: ["rm -rf"]\n    deny: "no rm -rf"\n');
  });
  afterAll(() => p.remove());

  it('exits 2 naming the option, on an event exit 2 cannot stop', () => {
    const r = p.run({ hook_event_name: 'SessionStart', source: 'startup' }, { args: ['--bogus'] });
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([2, '', `${usage}\n`]);
  });

  it('fails open, visibly, on PreToolUse: a typo in settings.json does not block every tool call', () => {
    const r = p.run({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }, { args: ['--bogus'] });
    expect(r.exitCode).toBe(0);
    expect(r.json).toEqual({ systemMessage: `hookpolicy: error hook-usage: ${usage} (failing open: the event was not checked)` });
  });

  it('fails closed on PreToolUse under --on-error closed', () => {
    const r = p.run({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }, { args: ['--on-error', 'closed', '--bogus'] });
    expect(r.exitCode).toBe(0);
    expect(r.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });

  (HAS_TERMINAL ? it : it.skip)('is reported at once when typed at a terminal, without waiting for stdin', async () => {
    const typed = await runCliInTerminal(['hook', '--bogus'], { cwd: p.dir, timeoutMs: 5_000 });
    expect([typed.code, typed.output]).toEqual([2, `${usage}\r\n`]);
    // Without a usage error, the runner waits for the event on stdin.
    expect((await runCliInTerminal(['hook'], { cwd: p.dir, timeoutMs: 1_500 })).code).toBeNull();
  });
});

describe('colour in the human formats', () => {
  const terminal = HAS_TERMINAL ? it : it.skip;

  it('is off when stdout is not a terminal', () => {
    const lint = runCli(['lint'], { cwd: BAD });
    expect(lint.stdout).toContain('  error  ');
    expect(lint.stdout).not.toMatch(ANSI);
    const test = runCli(['test', `${SUITES}/failing.suite.yaml`], { cwd: REPO_ROOT });
    expect(test.stdout).toContain('  ✓ ');
    expect(test.stdout).not.toMatch(ANSI);
  });

  it.each(['1', '2', '3', 'true'])('is on without a terminal with FORCE_COLOR=%s', (value) => {
    expect(runCli(['lint'], { cwd: BAD, env: { FORCE_COLOR: value } }).stdout).toContain(RED_ERROR);
  });

  it('colours pass and fail in the test report with FORCE_COLOR, but never its summary line', () => {
    const run = runCli(['test', `${SUITES}/failing.suite.yaml`], { cwd: REPO_ROOT, env: { FORCE_COLOR: '1' } });
    expect(run.stdout).toContain(`  ${GREEN_TICK} `);
    expect(run.stdout).toContain('  \u001b[31m✗\u001b[39m wrong outcome');
    expect(run.stdout.endsWith('\n1 passed, 2 failed\n')).toBe(true);
  });

  it('stays off in machine formats, whatever FORCE_COLOR says', () => {
    expect(runCli(['lint', '--format', 'json'], { cwd: BAD, env: { FORCE_COLOR: '1' } }).stdout).not.toMatch(ANSI);
    expect(runCli(['test', `${SUITES}/failing.suite.yaml`, '--format', 'tap'], { cwd: REPO_ROOT, env: { FORCE_COLOR: '1' } }).stdout).not.toMatch(ANSI);
  });

  terminal('is on in a terminal', async () => {
    expect((await runCliInTerminal(['lint'], { cwd: BAD })).output).toContain(RED_ERROR);
    expect((await runCliInTerminal(['test', `${SUITES}/passing.test.yaml`], { cwd: REPO_ROOT })).output).toContain(`  ${GREEN_TICK} `);
  });

  terminal('is off in a terminal with NO_COLOR (any non-empty value) or FORCE_COLOR=0; NO_COLOR= (empty) does not count', async () => {
    for (const env of [{ NO_COLOR: '1' }, { NO_COLOR: 'yes' }, { FORCE_COLOR: '0' }, { FORCE_COLOR: 'false' }]) {
      const run = await runCliInTerminal(['lint'], { cwd: BAD, env });
      expect([env, run.output]).toEqual([env, expect.stringContaining('  error  ')]);
      expect(run.output).not.toMatch(ANSI);
    }
    expect((await runCliInTerminal(['lint'], { cwd: BAD, env: { NO_COLOR: '' } })).output).toContain(RED_ERROR);
    const test = await runCliInTerminal(['test', `${SUITES}/passing.test.yaml`], { cwd: REPO_ROOT, env: { NO_COLOR: '1' } });
    expect(test.output).toContain('  ✓ ');
    expect(test.output).not.toMatch(ANSI);
  });
});

describe('--quiet and --output-file', () => {
  let out: string;
  beforeEach(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'policy-report-'));
  });
  afterEach(() => fs.rmSync(out, { recursive: true, force: true }));

  it('lint --quiet reports errors only, in every format, and keeps the exit code', () => {
    const all = runCli(['lint'], { cwd: BAD });
    expect(all.stdout).toContain('  warning  ');
    const quiet = runCli(['lint', '--quiet'], { cwd: BAD });
    expect(quiet.code).toBe(1);
    expect(quiet.stdout).not.toContain('warning  ');
    expect(quiet.stdout.trimEnd().split('\n').pop()).toBe('1 problem (1 error, 0 warnings)');
    const json = JSON.parse(runCli(['lint', '--quiet', '--format', 'json'], { cwd: BAD }).stdout) as Array<{ severity: string }>;
    expect(json.map((d) => d.severity)).toEqual(['error']);
  });

  it('lint --quiet still counts warnings for --max-warnings', () => {
    const dir = path.join(LINT_FIXTURES, 'http-closed');
    expect(runCli(['lint', '--quiet'], { cwd: dir })).toEqual({ code: 0, stdout: '', stderr: '' });
    const strict = runCli(['lint', '--quiet', '--max-warnings', '0'], { cwd: dir });
    expect(strict).toEqual({ code: 1, stdout: '', stderr: 'policy lint: too many warnings (1; maximum: 0)\n' });
  });

  it('lint -o FILE writes the report there (folders created) instead of stdout, with the same exit code', () => {
    const file = path.join(out, 'reports', 'lint.json');
    const run = runCli(['lint', '--format', 'json', '-o', file], { cwd: BAD });
    expect([run.code, run.stdout, run.stderr]).toEqual([1, '', '']);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(JSON.parse(runCli(['lint', '--format', 'json'], { cwd: BAD }).stdout));
    const clean = runCli(['lint', '--output-file', path.join(out, 'clean.txt')], { cwd: path.join(LINT_FIXTURES, 'clean') });
    expect([clean.code, clean.stdout, fs.readFileSync(path.join(out, 'clean.txt'), 'utf8')]).toEqual([0, '', '']);
  });

  it('lint -o FILE exits 2 when the file cannot be written', () => {
    const run = runCli(['lint', '-o', out], { cwd: BAD });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^policy lint: cannot write the report to .*: EISDIR/);
  });

  it('test --quiet prints failures and the summary only', () => {
    const run = runCli(['test', '--quiet', `${SUITES}/failing.suite.yaml`, `${SUITES}/passing.test.yaml`], { cwd: REPO_ROOT });
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain('✓');
    expect(run.stdout).not.toContain('passing.test.yaml');
    expect(run.stdout).toContain('  ✗ wrong outcome\n');
    expect(run.stdout.trimEnd().split('\n').pop()).toBe('7 passed, 2 failed');
    expect(runCli(['test', '--quiet', `${SUITES}/passing.test.yaml`], { cwd: REPO_ROOT }).stdout).toBe('6 passed, 0 failed\n');
  });

  it('test -o FILE writes the report there instead of stdout, with the same exit code', () => {
    const file = path.join(out, 'junit', 'policy.xml');
    const run = runCli(['test', `${SUITES}/failing.suite.yaml`, '--format', 'junit', '--output-file', file], { cwd: REPO_ROOT });
    expect([run.code, run.stdout, run.stderr]).toEqual([1, '', '']);
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="policy test" tests="3" failures="2"/);
    const cannot = runCli(['test', `${SUITES}/passing.test.yaml`, '-o', out], { cwd: REPO_ROOT });
    expect(cannot.code).toBe(2);
    expect(cannot.stderr).toMatch(/^policy test: cannot write the report to .*: EISDIR/);
  });

  it('writes no colour into the file, unless FORCE_COLOR says so', async () => {
    const file = path.join(out, 'lint.txt');
    if (HAS_TERMINAL) {
      await runCliInTerminal(['lint', '-o', file], { cwd: BAD });
      expect(fs.readFileSync(file, 'utf8')).toContain('  error  ');
      expect(fs.readFileSync(file, 'utf8')).not.toMatch(ANSI);
    }
    runCli(['lint', '-o', file], { cwd: BAD, env: { FORCE_COLOR: '1' } });
    expect(fs.readFileSync(file, 'utf8')).toContain(RED_ERROR);
  });
});

describe('what policy lint reads', () => {
  /** A policy whose one rule is an outcome-impossible error at line 5. */
  const broken = (id: string) => `version: 1\nrules:\n  - id: ${id}\n    on: SubagentStart\n    block: "no"\n`;
  let root: string;
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  const lintJson = (args: string[], cwd: string, env: Record<string, string> = {}, input?: string) => {
    const run = runCli(['lint', '--format', 'json', ...args], { cwd, env, input });
    return { ...run, found: run.stdout ? (JSON.parse(run.stdout) as Array<{ file: string; line: number; code: string }>).map((d) => `${d.file}:${d.line} ${d.code}`) : [] };
  };

  beforeAll(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'policy-lint-inputs-')));
    write('proj/.claude/policies.yaml', `${broken('project-rule')}  - id: no-writes\n    on: PreToolUse\n    tools: Write\n    deny: "no"\n`);
    write('proj/.claude/settings.json', '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"npx policy hook"}]}]}}');
    fs.mkdirSync(path.join(root, 'proj/src/deep'), { recursive: true });
    write('proj/policies/a.yaml', broken('a'));
    write('proj/policies/b.yml', broken('b'));
    write('proj/policies/sub/c.yaml', broken('c'));
    write('proj/policies/notes.yaml', 'title: not a policy\n');
    write('proj/policies/a.test.yaml', 'policy: a.yaml\ncases: []\n');
    write('proj/policies/node_modules/dep/x.yaml', broken('x'));
    write('proj/empty/readme.md', '# nothing here\n');
    write('elsewhere/keep', '');
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('finds the project by searching up from the working directory, and reads its settings', () => {
    const run = lintJson([], path.join(root, 'proj/src/deep'));
    expect(run.code).toBe(1);
    expect(run.found).toEqual([
      `${root}/proj/.claude/policies.yaml:5 outcome-impossible`,
      `${root}/proj/.claude/policies.yaml:8 settings-not-routed`,
    ]);
  });

  it('says where it looked when no folder up has a policy', () => {
    const run = runCli(['lint'], { cwd: path.join(root, 'elsewhere') });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`policy lint: no policy file found in ${root}/elsewhere or a folder above it (.claude/policies.yaml or policies.yaml); name one: policy lint FILE\n`);
  });

  it('keeps --project-dir and $CLAUDE_PROJECT_DIR: the project they name, never a search', () => {
    expect(lintJson(['--project-dir', path.join(root, 'proj')], path.join(root, 'elsewhere')).found).toHaveLength(2);
    expect(lintJson([], path.join(root, 'elsewhere'), { CLAUDE_PROJECT_DIR: path.join(root, 'proj') }).found).toHaveLength(2);
    const named = runCli(['lint'], { cwd: path.join(root, 'proj/src'), env: { CLAUDE_PROJECT_DIR: path.join(root, 'elsewhere') } });
    expect([named.code, named.stderr]).toEqual([2, expect.stringContaining(`no policy file found in ${root}/elsewhere (`)]);
  });

  it('reads the policy from stdin with -, positions naming <stdin>', () => {
    const run = lintJson(['-', '--no-settings'], path.join(root, 'elsewhere'), {}, broken('piped'));
    expect([run.code, run.found]).toEqual([1, ['<stdin>:5 outcome-impossible']]);
    const stylish = runCli(['lint', '-', '--no-settings'], { cwd: root, input: broken('piped') });
    expect(stylish.stdout.split('\n').slice(0, 2)).toEqual(['<stdin>', '  5:5  error  Rule "piped": block has no effect on SubagentStart  outcome-impossible']);
  });

  it('lints every policy file of a folder (a .yaml or .yml with a top-level version), skipping node_modules', () => {
    const run = lintJson(['policies', '--no-settings'], path.join(root, 'proj'));
    expect(run.found).toEqual(['policies/a.yaml:5 outcome-impossible', 'policies/b.yml:5 outcome-impossible', 'policies/sub/c.yaml:5 outcome-impossible']);
  });

  it('exits 2 on a folder without a policy file', () => {
    const run = runCli(['lint', 'empty'], { cwd: path.join(root, 'proj') });
    expect([run.code, run.stderr]).toEqual([2, 'policy lint: no policy file in empty (a .yaml or .yml file with a top-level version)\n']);
  });

  it('expands globs the shell left alone, and exits 2 when one matches nothing', () => {
    const cwd = path.join(root, 'proj');
    expect(lintJson(['policies/*.yml', 'policies/**/c.yaml', '--no-settings'], cwd).found).toEqual(['policies/b.yml:5 outcome-impossible', 'policies/sub/c.yaml:5 outcome-impossible']);
    expect(lintJson(['policies/[ab].y*ml', '--no-settings'], cwd).found).toEqual(['policies/a.yaml:5 outcome-impossible', 'policies/b.yml:5 outcome-impossible']);
    const none = runCli(['lint', 'policies/*.json'], { cwd });
    expect([none.code, none.stderr]).toEqual([2, 'policy lint: no file matches policies/*.json\n']);
  });

  it('lints each named file as its own policy, each once', () => {
    write('proj/same/one.yaml', broken('same-id'));
    write('proj/same/two.yaml', broken('same-id'));
    const run = lintJson(['same/one.yaml', 'same', 'same/two.yaml', '--no-settings'], path.join(root, 'proj'));
    expect(run.found).toEqual(['same/one.yaml:5 outcome-impossible', 'same/two.yaml:5 outcome-impossible']);
  });
});

describe('machine formats stay valid', () => {
  it('test --format junit is well-formed XML whatever the names hold', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policy-junit-'));
    try {
      const nasty = 'a & b \\"c\\" \'d\' <e> ]]> \\x01 \\e[31m \\uD800 \\uFFFF end';
      fs.writeFileSync(path.join(dir, 'odd.test.yaml'), [
        `policy: ${JSON.stringify(path.join(REPO_ROOT, SUITES, 'policy.yaml'))}`,
        'cases:',
        `  - name: "passes ${nasty}"`,
        '    event: { event: PreToolUse, command: "ls" }',
        '    expect: { outcome: none }',
        `  - name: "fails ${nasty}"`,
        `    event: { event: PreToolUse, command: "rm -rf /tmp/x ${nasty}" }`,
        `    expect: { outcome: allow, stderr: "${nasty}" }`,
      ].join('\n'));
      const run = runCli(['test', '--format', 'junit', 'odd.test.yaml'], { cwd: dir });
      expect(run.code).toBe(1);
      const xml = parseXml(run.stdout);
      expect(xml.errors).toEqual([]);
      const shown = 'a & b "c" \'d\' <e> ]]> \\u0001 \\u001b[31m \uFFFD \uFFFD end';
      expect(xml.elements.filter((e) => e.name === 'testcase').map((e) => e.attributes.name)).toEqual([`passes ${shown}`, `fails ${shown}`]);
      const failure = xml.elements.find((e) => e.name === 'failure')?.text ?? '';
      expect(failure).toContain('- allow\n+ deny\n');
      expect(failure).toContain('<e> ]]> \\u0001 \\u001b[31m');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lint --format sarif validates against the SARIF 2.1.0 schema, with absolute helpUris', () => {
    const validate = sarifValidator();
    for (const [args, cwd] of [[[], BAD], [['broken.yaml', 'schema.yaml', '--no-settings'], LINT_FIXTURES]] as const) {
      const run = runCli(['lint', '--format', 'sarif', ...args], { cwd });
      const log = JSON.parse(run.stdout);
      expect(validate(log)).toEqual([]);
      for (const rule of log.runs[0].tool.driver.rules) expect(rule.helpUri).toMatch(new RegExp(`^https://.+/docs/diagnostics\\.md#${rule.id}$`));
    }
  });
});
