/**
 * `policy lint` end to end: the command as registered in the CLI, on the projects in
 * fixtures/lint/, through the file system.
 */
import * as path from 'path';
import { main } from '../../cli/main';
import { runLint } from '../../cli/commands/lint';
import type { LintCommandOptions } from '../../cli/commands/lint';

const FIXTURES = path.join(__dirname, '..', '..', 'fixtures', 'lint');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function lint(dir: string, files: string[] = [], options: Partial<LintCommandOptions> = {}): Run {
  let stdout = '';
  let stderr = '';
  const code = runLint(files, { format: 'json', maxWarnings: -1, ...options }, {
    cwd: path.join(FIXTURES, dir),
    env: {},
    stdout: (t) => { stdout += t; },
    stderr: (t) => { stderr += t; },
  });
  return { code, stdout, stderr };
}

const found = (run: Run) => (JSON.parse(run.stdout) as Array<{ file: string; line: number; column: number; code: string }>)
  .map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`);

describe('policy lint', () => {
  it('is clean (exit 0, no output) on a routed, correct project', () => {
    const run = lint('clean', [], { format: 'stylish' });
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('finds every problem of a bad project, at its position', () => {
    const run = lint('bad');
    expect(run.code).toBe(1);
    expect(found(run)).toEqual([
      '.claude/policies.yaml:7:25 template-unknown-value',
      '.claude/policies.yaml:8:9 rule-shadowed',
      '.claude/policies.yaml:12:10 message-user-only',
      '.claude/policies.yaml:15:5 outcome-impossible',
      '.claude/policies.yaml:18:12 rule-unreachable',
      '.claude/policies.yaml:18:12 settings-not-routed',
      '.claude/policies.yaml:21:9 settings-not-routed',
      '.claude/policies.yaml:22:5 prompts-unset',
      '.claude/policies.yaml:22:12 message-user-only',
    ]);
  });

  it('links each diagnostic to its docs section in json', () => {
    const [first] = JSON.parse(lint('bad').stdout);
    expect(first.docs).toBe('docs/diagnostics.md#template-unknown-value');
  });

  it('skips the settings check with --no-settings, and uses --settings FILE', () => {
    expect(found(lint('bad', [], { settings: false })).filter((d) => d.endsWith('settings-not-routed'))).toEqual([]);
    const other = path.join('..', 'clean', '.claude', 'settings.json');
    expect(found(lint('bad', [], { settings: other })).filter((d) => d.endsWith('settings-not-routed'))).toEqual([
      '.claude/policies.yaml:18:12 settings-not-routed',
      '.claude/policies.yaml:21:9 settings-not-routed',
    ]);
  });

  it('warns about an HTTP daemon with on_error: closed; warnings fail only beyond --max-warnings', () => {
    const run = lint('http-closed');
    expect([run.code, found(run)]).toEqual([0, ['.claude/policies.yaml:3:13 http-fail-closed']]);
    expect(lint('http-closed', [], { maxWarnings: 1 }).code).toBe(0);
    const strict = lint('http-closed', [], { maxWarnings: 0 });
    expect([strict.code, strict.stderr]).toEqual([1, 'policy lint: too many warnings (1; maximum: 0)\n']);
  });

  it('reports syntax and schema errors of named files', () => {
    const run = lint('.', ['broken.yaml', 'schema.yaml'], { settings: false });
    expect([run.code, found(run)]).toEqual([1, ['broken.yaml:5:5 yaml-syntax', 'schema.yaml:4:9 unknown-event', 'schema.yaml:5:5 schema-unknown-key']]);
  });

  it('reports a missing named file as policy-not-found', () => {
    const run = lint('.', ['nope.yaml'], { settings: false });
    expect([run.code, JSON.parse(run.stdout).map((d: { code: string }) => d.code)]).toEqual([1, ['policy-not-found']]);
  });

  it.each([
    ['an unknown format', ['bad'], { format: 'xml' }, 'policy lint: unknown format "xml" (one of: stylish, json, sarif, github)\n'],
    ['a bad --max-warnings', ['bad'], { maxWarnings: 'many' }, 'policy lint: --max-warnings takes a whole number (-1 = no limit), not "many"\n'],
    ['a missing settings file', ['bad'], { settings: 'nope.json' }, 'policy lint: cannot read the settings file nope.json\n'],
  ])('exits 2 on %s', (_name, [dir], options, stderr) => {
    const run = lint(dir, [], options as Partial<LintCommandOptions>);
    expect([run.code, run.stdout, run.stderr]).toEqual([2, '', stderr]);
  });

  it('exits 2 when there is no policy to lint', () => {
    const run = lint('.', [], { projectDir: 'nowhere' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^policy lint: no policy file found/);
  });

  it('writes GitHub annotations and SARIF', () => {
    const github = lint('http-closed', [], { format: 'github' }).stdout;
    expect(github).toBe('::warning file=.claude/policies.yaml,line=3,col=13,title=http-fail-closed::.claude/settings.json sends PreToolUse to the runner over HTTP without "onFailure": "block": when the policy server is down (an agent can stop it), Claude Code goes on as if no hook ran, though on_error is closed (run policy init again: it writes "onFailure": "block" on these entries (or route them with a command hook, "policy hook"))\n');
    const sarif = JSON.parse(lint('bad', [], { format: 'sarif' }).stdout);
    expect(sarif.runs[0].results.map((r: { ruleId: string; locations: Array<{ physicalLocation: { region: { startLine: number } } }> }) => `${r.locations[0].physicalLocation.region.startLine} ${r.ruleId}`))
      .toEqual(['7 template-unknown-value', '8 rule-shadowed', '12 message-user-only', '15 outcome-impossible', '18 rule-unreachable', '18 settings-not-routed', '21 settings-not-routed', '22 prompts-unset', '22 message-user-only']);
  });
});

describe('policy lint through the CLI program', () => {
  let out = '';
  let err = '';
  beforeEach(() => {
    out = '';
    err = '';
    jest.spyOn(process.stdout, 'write').mockImplementation((t) => { out += String(t); return true; });
    jest.spyOn(process.stderr, 'write').mockImplementation((t) => { err += String(t); return true; });
  });
  afterEach(() => jest.restoreAllMocks());

  it('is registered, and returns the exit code', async () => {
    const file = path.join(FIXTURES, 'schema.yaml');
    expect(await main(['node', 'policy', 'lint', file, '--no-settings', '--format', 'github'])).toBe(1);
    expect(out).toMatch(/^::error file=.*schema\.yaml,line=4,col=9,title=unknown-event::/);
  });

  it('exits 0 on a clean project given by --project-dir', async () => {
    expect(await main(['node', 'policy', 'lint', '--project-dir', path.join(FIXTURES, 'clean')])).toBe(0);
    expect(out).toBe('');
  });

  it('exits 2 on an unknown option', async () => {
    expect(await main(['node', 'policy', 'lint', '--bogus'])).toBe(2);
    expect(err).toMatch(/unknown option '--bogus'/);
  });
});
