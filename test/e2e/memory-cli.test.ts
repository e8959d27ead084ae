/**
 * `policy memory` and `policy stats` through the built bin, on throwaway projects: every
 * `$ policy ...` example of docs/commands/memory.md and docs/commands/stats.md prints
 * exactly what the docs show (each console block on a fresh copy of the docs' project),
 * and the cases the docs describe in prose.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli, type CliRun } from '../support/run-cli';
import { REPO_ROOT } from '../support/run-hook';
import { EXAMPLE_RECORDS, exampleCacheDir, memoryExample } from '../support/memory-example';
import { ensureBuilt } from '../support/hook-process';

beforeAll(() => ensureBuilt(), 120_000);

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function example(records = EXAMPLE_RECORDS): string {
  const dir = memoryExample(records);
  made.push(dir);
  return dir;
}

function policy(dir: string, args: string[], env: Record<string, string> = {}): CliRun {
  return runCli(args, { cwd: dir, env: { CLAUDE_PROJECT_DIR: dir, HOOKPOLICY_CACHE_DIR: exampleCacheDir(dir), ...env } });
}

/** Each console block of a doc: its commands with the output shown under each. */
function consoleExamples(doc: string): Array<Array<{ args: string[]; shown: string }>> {
  const text = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'commands', doc), 'utf8');
  return [...text.matchAll(/```console\n([\s\S]*?)```/g)].map((block) => block[1].split(/^\$ policy /m).slice(1).map((part) => {
    const [line, ...rest] = part.split('\n');
    return { args: line.split(' '), shown: rest.join('\n') };
  }));
}

describe.each(['memory.md', 'stats.md'])('docs/commands/%s', (doc) => {
  const blocks = consoleExamples(doc);

  it('has examples', () => {
    expect(blocks.length).toBeGreaterThan(0);
  });

  it.each(blocks.map((b, i) => [i + 1, b.map((c) => c.args.join(' ')).join(' && '), b] as const))('example %d: %s prints what the docs show', (_i, _name, commands) => {
    const dir = example();
    for (const { args, shown } of commands) {
      const run = policy(dir, args);
      expect([args.join(' '), run.stdout + run.stderr]).toEqual([args.join(' '), shown]);
    }
  });
});

describe('policy stats --json', () => {
  it('holds what the docs\' shortened JSON shows', () => {
    const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'commands', 'stats.md'), 'utf8');
    const shown = JSON.parse(/## JSON\n\n```json\n([\s\S]*?)```/.exec(doc)?.[1] ?? 'null');
    const dir = example();
    const run = policy(dir, ['stats', '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ ...shown, rules: { ...shown.rules, file: path.join(dir, '.claude', 'decisions.jsonl') } });
  });
});

describe('policy memory', () => {
  it('list --json, search --json and export --json give records as JSON', () => {
    const dir = example();
    const listed = JSON.parse(policy(dir, ['memory', 'list', '--json', '--agent', 'murdock']).stdout);
    expect(listed.map((r: { id: number }) => r.id)).toEqual([8, 7, 6]);
    const found = JSON.parse(policy(dir, ['memory', 'search', 'auth', '--json', '--min-relevance', '0.9']).stdout);
    expect(found.map((r: { id: number; relevance: number }) => [r.id, r.relevance]).sort()).toEqual([[1, 1], [5, 1], [6, 1]]);
    const exported = JSON.parse(policy(dir, ['memory', 'export', '--json']).stdout);
    expect(exported.map((r: { id: number }) => r.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(exported[0]).toEqual({ id: 1, ...EXAMPLE_RECORDS[0] });
  });

  it('list --since takes a date; forget --before, --all, and JSON counts', () => {
    const dir = example();
    expect(policy(dir, ['memory', 'list', '--since', '2026-01-15', '--json']).stdout).toContain('"id": 6');
    expect(JSON.parse(policy(dir, ['memory', 'list', '--since', '2026-01-15', '--json']).stdout)).toHaveLength(4);
    expect(JSON.parse(policy(dir, ['memory', 'forget', '--before', '2026-01-15', '--json']).stdout)).toEqual({ forgotten: 5 });
    expect(policy(dir, ['memory', 'forget', '--all']).stdout).toBe('forgot 4 records\n');
    expect(policy(dir, ['memory', 'list']).stdout).toBe('no records\n');
  });

  it('reads the store of --project-dir, from any folder', () => {
    const dir = example();
    const run = runCli(['memory', 'show', '#1', '--project-dir', dir], { cwd: REPO_ROOT });
    expect([run.code, run.stdout.split('\n')[0]]).toEqual([0, '#1 file-change (importance 0.7)']);
  });

  it('a project whose store was never written has no records, and gets no folder', () => {
    const dir = example();
    fs.rmSync(path.join(dir, '.claude', 'hookpolicy'), { recursive: true });
    expect(policy(dir, ['memory', 'list']).stdout).toBe('no records\n');
    expect(policy(dir, ['memory', 'search', 'x']).stdout).toBe('nothing found\n');
    expect(policy(dir, ['stats']).stdout).toMatch(/^Tools and agents: no metric records \(the memory store is empty\)\n/);
    expect(fs.existsSync(path.join(dir, '.claude', 'hookpolicy'))).toBe(false);
  });

  it('reads the folder settings.memory.store names, and refuses when the store is off', () => {
    const dir = example();
    fs.renameSync(path.join(dir, '.claude', 'hookpolicy', 'memory'), path.join(dir, 'mem'));
    fs.appendFileSync(path.join(dir, '.claude', 'policies.yaml'), '');
    const policyFile = path.join(dir, '.claude', 'policies.yaml');
    fs.writeFileSync(policyFile, fs.readFileSync(policyFile, 'utf8').replace('memory: { retention_days: 3650 }', 'memory: { retention_days: 3650, store: mem }'));
    expect(policy(dir, ['memory', 'list', '--limit', '1']).stdout).toBe('#9  2026-01-15 10:05  metric  ba  Edit 22 ms\n1 record\n');
    fs.writeFileSync(policyFile, fs.readFileSync(policyFile, 'utf8').replace('store: mem', 'store: false'));
    const off = policy(dir, ['memory', 'list']);
    expect([off.code, off.stderr]).toEqual([2, 'policy memory list: the policy turns the memory store off (settings.memory.store: false)\n']);
  });

  it('without better-sqlite3: memory-unavailable with the fix, exit 2, the journal untouched', () => {
    const dir = example();
    const journal = path.join(dir, '.claude', 'hookpolicy', 'memory', 'journal.jsonl');
    const before = fs.readFileSync(journal, 'utf8');
    for (const args of [['memory', 'list'], ['memory', 'show', '1'], ['stats']]) {
      const run = policy(dir, args, { HOOKPOLICY_NO_SQLITE: '1' });
      expect([args, run.code, run.stdout]).toEqual([args, 2, '']);
      expect(run.stderr).toMatch(/^warning memory-unavailable: the memory store cannot be read: better-sqlite3 is not installed or not built .*\(in the project that installed hookpolicy, .*npm install-scripts approve better-sqlite3.*npm rebuild better-sqlite3/);
    }
    expect(fs.readFileSync(journal, 'utf8')).toBe(before);
  });

  it('refuses a store folder others can write (memory-error), exit 2', () => {
    const dir = example();
    fs.chmodSync(path.join(dir, '.claude', 'hookpolicy', 'memory'), 0o777);
    const run = policy(dir, ['memory', 'list']);
    expect([run.code, run.stderr]).toEqual([2, expect.stringMatching(/^.*memory: warning memory-error: memory list: .* can be written by other users \(mode 777\); chmod 700 it\n$/)]);
  });

  it.each([
    [['memory', 'forget', 'x1'], 'policy memory forget: "x1" is not a record id (a number, as list and search show it: #12)'],
    [['memory', 'search', 'a', '--min-relevance', '2'], "error: option '--min-relevance <r>' argument '2' is invalid. a number from 0 to 1"],
    [['memory', 'list', '--since', 'yesterday'], "error: option '--since <when>' argument 'yesterday' is invalid. a duration back from now (30m, 12h, 7d) or a date (2026-01-15)"],
    [['memory', 'search'], "error: missing required argument 'words'"],
    [['memory', 'bogus'], "error: unknown command 'bogus'"],
    [['stats', '--since', '5w'], "error: option '--since <when>' argument '5w' is invalid. a duration back from now (30m, 12h, 7d) or a date (2026-01-15)"],
  ])('usage error %j: exit 2, named on stderr', (args, message) => {
    const run = policy(example(), args);
    expect([run.code, run.stdout, run.stderr.split('\n')[0]]).toEqual([2, '', message]);
  });
});
