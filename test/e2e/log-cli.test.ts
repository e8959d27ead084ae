/**
 * `policy log` and `policy log verify` through the built bin, on throwaway projects: every
 * console example of docs/commands/log.md prints what the docs show (each block on a
 * fresh copy of the docs' project; `$ sed ...` lines run in a shell there), the runner's
 * own log verifies, tampering is caught at the right line, and bad options exit 2 naming
 * the option.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { lineHash } from '../../engine/decision-log/chain';
import { ANSI, HAS_TERMINAL, runCli, runCliInTerminal, type CliRun } from '../support/run-cli';
import { REPO_ROOT } from '../support/run-hook';
import { ensureBuilt } from '../support/hook-process';
import { chainLines, LOG_EXAMPLE_RECORDS, logExample } from '../support/log-example';

beforeAll(() => ensureBuilt(), 120_000);

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function example(lines?: string[]): string {
  const dir = logExample(lines);
  made.push(dir);
  return dir;
}

function policy(dir: string, args: string[], env: Record<string, string> = {}): CliRun {
  return runCli(args, { cwd: dir, env: { CLAUDE_PROJECT_DIR: dir, ...env } });
}

const logOf = (dir: string) => path.join(dir, '.claude', 'decisions.jsonl');
const linesOf = (dir: string) => fs.readFileSync(logOf(dir), 'utf8').trimEnd().split('\n');
const writeLines = (dir: string, lines: string[]) => fs.writeFileSync(logOf(dir), lines.map((l) => `${l}\n`).join(''));
const DOC = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'commands', 'log.md'), 'utf8');

/** Each console block of the doc: its commands with the output shown under each. */
function consoleExamples(): Array<Array<{ command: string; shown: string }>> {
  return [...DOC.matchAll(/```console\n([\s\S]*?)```/g)].map((block) => block[1].split(/^\$ /m).slice(1).map((part) => {
    const [command, ...rest] = part.split('\n');
    return { command, shown: rest.join('\n') };
  }));
}

describe('docs/commands/log.md', () => {
  const blocks = consoleExamples();

  it('has examples of both commands', () => {
    expect(blocks.flat().map((c) => c.command.split(' ').slice(0, 3).join(' '))).toEqual(expect.arrayContaining(['policy log', 'policy log verify', 'policy log --json']));
  });

  it.each(blocks.map((b, i) => [i + 1, b.map((c) => c.command).join(' && '), b] as const))('example %d: %s prints what the docs show', (_i, _name, commands) => {
    const dir = example();
    for (const { command, shown } of commands) {
      if (command.startsWith('policy ')) {
        const run = policy(dir, command.split(' ').slice(1));
        expect([command, run.stdout + run.stderr]).toEqual([command, shown]);
      } else {
        expect([command, execFileSync('/bin/sh', ['-c', command], { cwd: dir, encoding: 'utf8' })]).toEqual([command, shown]);
      }
    }
  });

  it('shows the example log\'s first line as the record with its prev', () => {
    const shown = /log's first line[\s\S]*?```json\n(.*)\n```/.exec(DOC.replace('carries the genesis value, 64 zeros:', "log's first line carries the genesis value, 64 zeros:"))?.[1];
    expect(shown).toBe(linesOf(example())[0]);
  });
});

describe('policy log verify on the runner\'s own log', () => {
  const event = (dir: string, file: string, session: string) => JSON.stringify({ hook_event_name: 'PreToolUse', session_id: session, cwd: dir, tool_name: 'Write', tool_input: { file_path: path.join(dir, file), content: 'x' } });
  const runHook = (dir: string, stdin: string) => runCli(['hook'], { cwd: dir, env: { CLAUDE_PROJECT_DIR: dir, HOOKPOLICY_CACHE_DIR: path.join(dir, '.cache') }, input: stdin });
  const project = (): string => {
    const dir = example([]);
    fs.writeFileSync(path.join(dir, '.claude', 'policies.yaml'), 'version: 1\nsettings:\n  log: { file: .claude/decisions.jsonl }\nrules:\n  - id: no-env\n    on: PreToolUse\n    tools: Write\n    paths: { deny: [".env*"] }\n    deny: ".env holds secrets"\n');
    fs.rmSync(logOf(dir));
    return dir;
  };

  it('a log the runner wrote verifies, and policy log lists its decisions', () => {
    const dir = project();
    for (const [file, session] of [['.env', 's1'], ['.env.local', 's2'], ['.env.test', 's1']]) expect(runHook(dir, event(dir, file, session)).code).toBe(0);
    const verify = policy(dir, ['log', 'verify']);
    expect([verify.code, verify.stdout.split('\n')[0]]).toEqual([0, '.claude/decisions.jsonl: chain intact, 3 lines, chained from line 1']);
    expect(verify.stdout.split('\n')[1]).toBe(`head ${lineHash(Buffer.from(linesOf(dir)[2]))}`);
    const listed = policy(dir, ['log', '--json', '--session', 's1']);
    expect(listed.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).paths)).toEqual([['.env'], ['.env.test']]);
  });

  it('after lines written before the chain: the runner chains to the last of them, verify covers it from there', () => {
    const dir = project();
    const old = LOG_EXAMPLE_RECORDS.slice(0, 2).map((r) => JSON.stringify(r));
    writeLines(dir, old);
    runHook(dir, event(dir, '.env', 's1'));
    const verify = policy(dir, ['log', 'verify']);
    expect([verify.code, verify.stdout.split('\n')[0]]).toEqual([0, '.claude/decisions.jsonl: chain intact, 3 lines, chained from line 3 (lines 1-2 were written before the chain and are not covered)']);
    writeLines(dir, [old[0], old[1].replace('"ask"', '"allow"'), linesOf(dir)[2]]);
    expect(policy(dir, ['log', 'verify']).code).toBe(1);
  });
});

describe('policy log verify catches tampering', () => {
  const lines = chainLines(LOG_EXAMPLE_RECORDS);
  const firstProblem = (run: CliRun) => [run.code, run.stdout.split('\n')[0]];

  it.each([
    ['a field edited', () => lines.map((l, i) => (i === 3 ? l.replace('"allow"', '"deny"') : l)), '.claude/decisions.jsonl:5:1: error log-chain-broken: prev does not match line 4: line 4 was changed, or lines after it were removed'],
    ['a middle line deleted', () => lines.filter((_, i) => i !== 2), '.claude/decisions.jsonl:3:1: error log-chain-broken: prev does not match line 2: line 2 was changed, or lines after it were removed'],
    ['two lines swapped', () => [lines[0], lines[2], lines[1], ...lines.slice(3)], '.claude/decisions.jsonl:2:1: error log-chain-broken: prev names line 3, which comes after it: lines were reordered'],
    ['a forged line appended with a wrong prev', () => [...lines, JSON.stringify({ ...LOG_EXAMPLE_RECORDS[3], prev: lineHash(Buffer.from(lines[1])) })], '.claude/decisions.jsonl:7:1: error log-chain-broken: prev names line 2, not line 6: lines 3-6 were inserted, or lines were moved'],
    ['a line cut short in the middle', () => lines.map((l, i) => (i === 1 ? l.slice(0, 40) : l)), '.claude/decisions.jsonl:2:1: error log-chain-broken: line 2 is not a JSON record (cut short or garbled)'],
    ['a line without prev inserted', () => [...lines.slice(0, 4), JSON.stringify(LOG_EXAMPLE_RECORDS[0]), ...lines.slice(4)], '.claude/decisions.jsonl:5:1: error log-chain-broken: line 5 has no prev, but the chain began at line 1: a line added by other means than the runner'],
  ])('%s: exit 1, the first broken link named', (_name, tamper, first) => {
    const dir = example(tamper());
    const run = policy(dir, ['log', 'verify']);
    expect(firstProblem(run)).toEqual([1, first]);
    expect(run.stdout).toMatch(/\n\.claude\/decisions\.jsonl: chain broken \(\d+ broken links?\), \d+ lines, chained from line 1\nhead [0-9a-f]{64}\n$/);
  });

  it('the last line dropped: intact without --head, caught with the head kept before', () => {
    const head = lineHash(Buffer.from(lines[lines.length - 1]));
    const dir = example(lines.slice(0, -1));
    expect(policy(dir, ['log', 'verify']).code).toBe(0);
    const run = policy(dir, ['log', 'verify', '--head', head]);
    expect(firstProblem(run)).toEqual([1, `.claude/decisions.jsonl:5:1: error log-chain-broken: no line has the head hash given (${head.slice(0, 12)}…): lines were removed from the end, or the log was rewritten`]);
  });

  it('a file cut mid-line at its end', () => {
    const dir = example();
    fs.appendFileSync(logOf(dir), lines[0].slice(0, 50));
    const run = policy(dir, ['log', 'verify', '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ file: logOf(dir), lines: 7, chainedFrom: 1, breaks: [{ line: 7, kind: 'unterminated' }, { line: 7, kind: 'garbled' }] });
  });

  it('--json of an intact log: no breaks, the head', () => {
    const run = policy(example(), ['log', 'verify', '--json']);
    expect([run.code, JSON.parse(run.stdout)]).toEqual([0, { file: expect.any(String), lines: 6, chainedFrom: 1, head: lineHash(Buffer.from(lines[5])), breaks: [] }]);
  });
});

describe('policy log filters', () => {
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
  const recent = () => chainLines([
    { ...LOG_EXAMPLE_RECORDS[0], time: ago(3 * 3_600_000) },
    { ...LOG_EXAMPLE_RECORDS[1], time: ago(3_600_000) },
    { ...LOG_EXAMPLE_RECORDS[2], time: ago(600_000) },
  ]);
  const reasons = (run: CliRun) => (run.stdout === '' ? [] : run.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).rules[0]));

  it.each([
    [['--since', '2h'], ['ask-migrations', 'reviewer-writes-nothing']],
    [['--until', '30m'], ['no-env-writes', 'ask-migrations']],
    [['--since', '2h', '--until', '30m'], ['ask-migrations']],
    [['--since', '1d', '--limit', '1'], ['reviewer-writes-nothing']],
  ])('relative times %j', (args, expected) => {
    expect(reasons(policy(example(recent()), ['log', '--json', ...args]))).toEqual(expected);
  });

  it.each([
    [['--outcome', 'deny', '--outcome', 'ask'], ['no-env-writes', 'ask-migrations', 'reviewer-writes-nothing', 'no-env-writes']],
    [['--outcome', 'none'], ['remind-tests']],
    [['--agent', 'main'], ['no-env-writes', 'ask-migrations', 'remind-tests']],
    [['--agent', 'lynch', '--agent', 'murdock'], ['reviewer-writes-nothing', 'tests-may-run', 'no-env-writes']],
    [['--rule', 'no-env-writes,tests-may-run'], ['no-env-writes', 'tests-may-run', 'no-env-writes']],
    [['--tool', 'Bash'], ['ask-migrations', 'tests-may-run']],
    [['--event', 'Stop'], ['remind-tests']],
    [['--session', 'a1f3', '--outcome', 'deny'], ['no-env-writes']],
    [['--since', '2026-01-15', '--limit', '2'], ['no-env-writes', 'remind-tests']],
    [['--agent', 'nobody'], []],
  ])('%j', (args, expected) => {
    expect(reasons(policy(example(), ['log', '--json', ...args]))).toEqual(expected);
  });

  it('--file reads another log, from any folder; --project-dir finds the project\'s', () => {
    const dir = example();
    const other = path.join(dir, 'copy.jsonl');
    fs.copyFileSync(logOf(dir), other);
    const run = runCli(['log', '--file', other, '--outcome', 'ask', '--json'], { cwd: os.tmpdir() });
    expect([run.code, reasons(run)]).toEqual([0, ['ask-migrations']]);
    const verify = runCli(['log', 'verify', '--project-dir', dir], { cwd: REPO_ROOT });
    expect([verify.code, verify.stdout.split('\n')[0]]).toEqual([0, `${logOf(dir)}: chain intact, 6 lines, chained from line 1`]);
    // The file options go before or after verify.
    const before = runCli(['log', '--file', other, 'verify', '--json'], { cwd: REPO_ROOT });
    expect([before.code, JSON.parse(before.stdout).file]).toEqual([0, other]);
  });

  it('skips lines that are not records and says so on stderr', () => {
    const dir = example();
    fs.appendFileSync(logOf(dir), 'garbage\n');
    const run = policy(dir, ['log', '--outcome', 'none']);
    expect([run.code, run.stderr]).toEqual([0, 'policy log: 1 line is not a decision record (line 7); policy log verify says more\n']);
    expect(run.stdout.split('\n').at(-2)).toBe('1 decision (of 6 in .claude/decisions.jsonl)');
  });

  it('shows control characters an agent put in a reason or a path as escapes, never raw to the terminal', () => {
    const planted = { ...LOG_EXAMPLE_RECORDS[0], reason: 'refused: echo \u001b]0;owned\u0007\u001b[2J', paths: ['a\u001b[8mhidden\u009b.txt'] };
    const dir = example(chainLines([planted]));
    const run = policy(dir, ['log']);
    expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(run.stdout).toContain('a\\u001b[8mhidden\\u009b.txt');
    expect(run.stdout).toContain('refused: echo \\u001b]0;owned\\u0007\\u001b[2J');
    expect(policy(dir, ['log', '--json']).stdout).toBe(`${linesOf(dir)[0]}\n`);
  });

  it('prints no decisions when nothing matches', () => {
    expect(policy(example(), ['log', '--tool', 'Read']).stdout).toBe('no decisions (of 6 in .claude/decisions.jsonl)\n');
  });

  (HAS_TERMINAL ? it : it.skip)('colours the outcome on a terminal only', async () => {
    const dir = example();
    const tty = await runCliInTerminal(['log'], { cwd: dir, env: { CLAUDE_PROJECT_DIR: dir } });
    expect(tty.output).toContain('\u001b[31mdeny');
    expect(policy(dir, ['log']).stdout).not.toMatch(ANSI);
  });
});

describe('usage errors: exit 2, the option named', () => {
  it.each([
    [['log', '--since', 'yesterday'], "error: option '--since <when>' argument 'yesterday' is invalid. a duration back from now (30m, 12h, 7d) or a date (2026-01-15)"],
    [['log', '--until', '5w'], "error: option '--until <when>' argument '5w' is invalid. a duration back from now (30m, 12h, 7d) or a date (2026-01-15)"],
    [['log', '--outcome', 'deny,maybe'], 'error: option \'--outcome <outcomes>\' argument \'deny,maybe\' is invalid. "maybe" is not an outcome: one of deny, ask, allow, block, none'],
    [['log', '--agent', 'a,,b'], "error: option '--agent <names>' argument 'a,,b' is invalid. --agent takes names, one or a comma list (a,b), none empty"],
    [['log', '--limit', '0'], "error: option '--limit <n>' argument '0' is invalid. a whole number from 1 to 10000000"],
    [['log', '--since', '1h', '--until', '2h'], 'policy log: --since is later than --until'],
    [['log', 'verify', '--head', 'abc'], 'error: option \'--head <hash>\' argument \'abc\' is invalid. a SHA-256 hash, 64 hex digits, as verify prints it after "head"'],
    [['log', 'verify', '--agent', 'lynch'], 'policy log verify: verify reads the whole log: it takes no filter (--agent)'],
    [['log', 'bogus'], "error: too many arguments for 'log'. Expected 0 arguments but got 1."],
    [['log', '--file', 'missing.jsonl'], 'policy log: missing.jsonl does not exist yet'],
    [['log', 'verify', '--file', 'missing.jsonl'], 'policy log verify: missing.jsonl does not exist yet'],
  ])('%j', (args, message) => {
    const run = policy(example(), args);
    expect([run.code, run.stdout, run.stderr.split('\n')[0]]).toEqual([2, '', message]);
  });

  it('a policy without settings.log.file, and a project without a policy', () => {
    const dir = example();
    fs.writeFileSync(path.join(dir, '.claude', 'policies.yaml'), 'version: 1\nrules: []\n');
    expect(policy(dir, ['log']).stderr).toBe('policy log: the policy sets no settings.log.file: give the log with --file\n');
    fs.rmSync(path.join(dir, '.claude', 'policies.yaml'));
    const run = policy(dir, ['log', 'verify']);
    expect([run.code, run.stderr]).toEqual([2, `policy log verify: no policy file in ${dir}: give the log with --file\n`]);
  });

  it('a FIFO where the log was: refused at once, never waited on', () => {
    const dir = example();
    fs.rmSync(logOf(dir));
    if (spawnSync('mkfifo', [logOf(dir)]).status !== 0) return;
    const started = Date.now();
    for (const args of [['log'], ['log', 'verify']]) {
      const run = policy(dir, args);
      expect([run.code, run.stderr]).toEqual([2, `policy ${args.join(' ')}: ${logOf(dir)} is not a regular file\n`]);
    }
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
