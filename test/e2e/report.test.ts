/**
 * `policy report` through the built bin, on throwaway projects: the example of
 * docs/commands/report.md (its log, its console line, its tables compared with the
 * page's), where the page goes, the period, the fail-open counter, and a log or an output
 * path the agent tampered with. The page in a real browser: report-browser.test.ts.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, runHook } from '../support/run-hook';
import { ensureBuilt } from '../support/hook-process';
import { decisionLine, policyReport, reportProject, sectionTable } from '../support/report-project';

beforeAll(() => ensureBuilt(), 120_000);

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function project(log: string | null, policy?: string): string {
  const dir = reportProject(log, policy);
  made.push(dir);
  return dir;
}

const page = (dir: string, file = 'hookpolicy-report.html') => fs.readFileSync(path.join(dir, file), 'utf8');

describe('docs/commands/report.md', () => {
  const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'commands', 'report.md'), 'utf8');
  const log = /```jsonl\n([\s\S]*?)```/.exec(doc)![1];
  const [, command, shown] = /```console\n\$ policy (.*)\n([\s\S]*?)```/.exec(doc)!;

  it('prints what the example shows and writes the page', () => {
    const dir = project(log);
    const run = policyReport(dir, command.split(' ').slice(1));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(shown);
    expect(page(dir)).toMatch(/^<!DOCTYPE html>/);
  });

  it.each([
    ['Per agent', 'agents'],
    ['Per rule', 'rules'],
    ['Paths denied most often', 'denied-paths'],
    ['Commands denied most often', 'denied-commands'],
  ])('the page\'s "%s" table is the doc\'s', (heading, id) => {
    const dir = project(log);
    expect(policyReport(dir, []).code).toBe(0);
    const table = new RegExp(`\\*\\*${heading}\\*\\*\\n\\n((?:\\|.*\\n)+)`).exec(doc)![1];
    const rows = table.trim().split('\n').filter((l) => !/^\|[-|]+\|$/.test(l)).map((l) => l.slice(1, -1).split('|').map((c) => c.trim()));
    expect(sectionTable(page(dir), id)).toEqual(rows);
  });

  it('says what the errors section says', () => {
    const dir = project(log);
    policyReport(dir, []);
    const html = page(dir);
    expect(html).toContain('1 decision logged with errors; 1 of them let the call through');
    expect(sectionTable(html, 'errors')).toEqual([['code', 'errors'], ['expression-error', '1']]);
  });
});

describe('policy report', () => {
  const LOG = [
    decisionLine('2026-01-14T09:00:00.000Z', 'deny', { rules: ['a'], paths: ['x'] }),
    decisionLine('2026-01-15T09:00:00.000Z', 'deny', { rules: ['b'], paths: ['y'] }),
    decisionLine('2026-01-16T09:00:00.000Z', 'ask', { rules: ['c'] }),
  ].join('\n') + '\n';

  it('--out - prints the page and nothing else; --out FILE writes there', () => {
    const dir = project(LOG);
    const run = policyReport(dir, ['--out', '-']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(/^<!DOCTYPE html>[\s\S]*<\/html>\n$/);
    expect(fs.existsSync(path.join(dir, 'hookpolicy-report.html'))).toBe(false);
    fs.mkdirSync(path.join(dir, 'out'));
    expect(policyReport(dir, ['-o', 'out/r.html']).stdout).toBe('wrote out/r.html: 3 decisions from 2026-01-14 09:00 to 2026-01-16 09:00 UTC\n');
    expect(page(dir, 'out/r.html')).toContain('<section id="rules">');
  });

  it('--since is inclusive, --until exclusive; the records outside are counted', () => {
    const dir = project(LOG);
    const run = policyReport(dir, ['--since', '2026-01-15', '--until', '2026-01-16']);
    expect(run.stdout).toBe('wrote hookpolicy-report.html: 1 decision from 2026-01-15 09:00 to 2026-01-15 09:00 UTC\n');
    expect(sectionTable(page(dir), 'rules').slice(1)).toEqual([['b', '1', '0', '0', '0', '0', '1']]);
    expect(page(dir)).toContain('<li>2 records outside it</li>');
  });

  it('--file reads another log, from the current folder, without a policy', () => {
    const dir = project(null, '');
    fs.rmSync(path.join(dir, '.claude', 'policies.yaml'));
    fs.writeFileSync(path.join(dir, 'team.jsonl'), LOG);
    expect(policyReport(dir, ['--file', 'team.jsonl']).code).toBe(0);
    expect(page(dir)).toContain('Log <code>team.jsonl</code>');
  });

  it('shows this project\'s fail-open counter over the period', () => {
    const dir = project(LOG);
    const counter = (time: string, project: string, onError: string) => JSON.stringify({ time, project, session_id: 's', event: 'PreToolUse', tool: 'Bash', code: 'policy-cache-error', message: 'cannot read the cache', on_error: onError });
    fs.writeFileSync(path.join(dir, '.cache', 'fail-opens.jsonl'), [
      counter('2026-01-14T10:00:00.000Z', dir, 'open'),
      counter('2026-01-14T11:00:00.000Z', dir, 'open'),
      counter('2026-01-14T12:00:00.000Z', dir, 'closed'),
      counter('2026-01-14T13:00:00.000Z', '/elsewhere', 'open'),
      counter('2026-01-17T10:00:00.000Z', dir, 'open'),
    ].join('\n') + '\n');
    expect(policyReport(dir, ['--until', '2026-01-16']).code).toBe(0);
    const html = page(dir);
    expect(html).toContain('The runner answered 2 calls without judging them and let them through (on_error: open); 1 more was stopped unjudged');
    expect(html).toMatch(/<dt>fail-open counter<\/dt><dd>2<\/dd>/);
    expect(html).not.toContain('No counter file was found');
  });

  it('shows a tampered counter (a symlink at its path) as a problem', () => {
    const dir = project(LOG);
    fs.writeFileSync(path.join(dir, 'elsewhere.jsonl'), '');
    fs.symlinkSync(path.join(dir, 'elsewhere.jsonl'), path.join(dir, '.cache', 'fail-opens.jsonl'));
    expect(policyReport(dir, []).code).toBe(0);
    expect(page(dir)).toMatch(/<p class="alert">[^<]*fail-opens\.jsonl cannot be read \(a symbolic link\)<\/p>/);
  });

  it('says when there is no fail-open counter file rather than counting 0', () => {
    const dir = project(LOG);
    expect(policyReport(dir, []).code).toBe(0);
    expect(page(dir)).toContain('No counter file was found: it is kept per user');
  });

  it.each<[string, (dir: string) => void, string[], RegExp]>([
    ['no log yet', () => undefined, [], /^policy report: \.claude\/decisions\.jsonl does not exist yet\n$/],
    ['a policy without a log', (dir) => fs.writeFileSync(path.join(dir, '.claude', 'policies.yaml'), 'version: 1\nrules: []\n'), [], /^policy report: the policy sets no settings\.log\.file; pass --file LOG\n$/],
    ['no policy and no --file', (dir) => fs.rmSync(path.join(dir, '.claude', 'policies.yaml')), [], /^policy report: no policy file in .* to name the decision log; pass --file LOG\n$/],
    ['--until before --since', () => undefined, ['--since', '2026-01-15', '--until', '2026-01-14'], /^policy report: --until must be later than --since\n$/],
    ['a bad --top', () => undefined, ['--top', '0'], /argument '0' is invalid\. a whole number from 1 to 1000/],
  ])('exit 2: %s', (_name, setup, args, message) => {
    const dir = project(null);
    setup(dir);
    const run = policyReport(dir, args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('refuses a FIFO planted as the log at once instead of waiting for a writer', () => {
    const dir = project(null);
    execFileSync('mkfifo', [path.join(dir, '.claude', 'decisions.jsonl')]);
    const started = Date.now();
    const run = policyReport(dir, []);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^policy report: cannot read \.claude\/decisions\.jsonl: .* is not a regular file\n$/);
  });

  it('replaces a symlink planted at the page\'s path instead of writing through it', () => {
    const dir = project(LOG);
    const victim = path.join(dir, 'victim.txt');
    fs.writeFileSync(victim, 'keep me');
    fs.symlinkSync(victim, path.join(dir, 'hookpolicy-report.html'));
    expect(policyReport(dir, []).code).toBe(0);
    expect(fs.readFileSync(victim, 'utf8')).toBe('keep me');
    expect(fs.lstatSync(path.join(dir, 'hookpolicy-report.html')).isFile()).toBe(true);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('from the runner to the page', () => {
  it('the runner logs a denied command redacted, and the report lists it', () => {
    const policy = 'version: 1\nsettings:\n  log: { file: .claude/decisions.jsonl, redact: ["ticket-\\\\d+"] }\nrules:\n  - id: no-force-push\n    on: PreToolUse\n    tools: Bash\n    command: ["git push --force"]\n    deny: "No force pushes."\n';
    const dir = project(null, policy);
    const command = 'GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 git push --force origin main # ticket-42';
    const event = { hook_event_name: 'PreToolUse', session_id: 's1', cwd: dir, tool_name: 'Bash', tool_input: { command } };
    for (let i = 0; i < 2; i++) expect(runHook(event, { projectDir: dir, cacheDir: path.join(dir, '.cache') }).stdout).toContain('"permissionDecision":"deny"');
    const logged = fs.readFileSync(path.join(dir, '.claude', 'decisions.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(logged.map((r) => r.command)).toEqual(Array(2).fill('GITHUB_TOKEN=ghp_[REDACTED] git push --force origin main # [REDACTED]'));
    expect(policyReport(dir, []).code).toBe(0);
    expect(sectionTable(page(dir), 'denied-commands')).toEqual([['command', 'denials'], ['GITHUB_TOKEN=ghp_[REDACTED] git push --force origin main # [REDACTED]', '2']]);
    expect(page(dir)).not.toContain('ghp_abcdef');
  });

  it('the runner fails open on a malformed event, and the page counts it', () => {
    const dir = project('');
    for (const stdin of ['not json', '{"hook_event_name": 7}']) {
      expect(runHook(stdin, { projectDir: dir, cacheDir: path.join(dir, '.cache') }).stdout).toContain('failing open');
    }
    expect(policyReport(dir, []).code).toBe(0);
    const html = page(dir);
    expect(html).toContain('The runner answered 2 calls without judging them and let them through');
    expect(sectionTable(html, 'errors').slice(0, 2)).toEqual([['code', 'fail-opens'], ['event-malformed', '2']]);
  });
});
