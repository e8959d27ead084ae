/**
 * The bench's check of issue 15's goals (scripts/bench/report.mjs), run as the bench runs
 * it (an ES module under node) on figures made up for the purpose: each goal met or
 * missed as its limit says, naming the worst case.
 */
import { execFileSync } from 'child_process';
import * as path from 'path';

const report = path.join(__dirname, '..', '..', 'scripts', 'bench', 'report.mjs');

interface Check { what: string; value: string; limit: string; ok: boolean }

function goalsOf(results: unknown): Check[] {
  const script = `import { issueGoals } from ${JSON.stringify(report)}; process.stdout.write(JSON.stringify(issueGoals(${JSON.stringify(results)})));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as Check[];
}

const row = (id: string, label: string, median: number) => ({ id, label, stats: { median } });
const daemonKinds = (medians: Record<string, number>) => Object.fromEntries(Object.entries(medians).map(([k, median]) => [k, { median }]));

const results = {
  process: [
    row('floor', "floor: node -e ''", 20),
    row('packs/none', 'shipped packs, matches nothing', 22),
    row('packs/context', 'shipped packs, injects context', 25),
    row('memory/search', 'memory store, searches memory', 23),
    row('rules1000/none', '1000 rules, matches nothing', 24),
    row('rules1000/write', '1000 rules, Write src/app.ts', 25),
    row('edit/packs', 'shipped packs, first event after a policy edit', 80),
    row('edit-lint/packs', 'shipped packs, first event after an edit and policy lint', 30),
  ],
  memory: [
    { id: 'floor', label: "floor: node -e ''", mib: 40 },
    { id: 'packs/none', label: 'shipped packs, matches nothing', mib: 43 },
    { id: 'memory/search', label: 'memory store, searches memory', mib: 46 },
  ],
  daemon: [
    { id: 'packs', label: 'shipped packs', latency: { median: 0.5 }, perKind: daemonKinds({ none: 0.4, context: 0.9 }) },
    { id: 'rules1000', label: '1000 rules', latency: { median: 0.4 }, perKind: daemonKinds({ none: 0.3, heredoc: 1.2 }) },
  ],
  inProcess: [{ id: 'rules1000', label: '1000 rules', engine: { eventsPerSecond: 90000, perKind: { write: 120000 } } }],
  policyTest: { cases: 10000, seconds: 3.4 },
};

describe('the bench: issue 15 goals', () => {
  const goals = goalsOf(results);
  const goal = (start: string) => {
    const found = goals.find((g) => g.what.startsWith(start));
    if (!found) throw new Error(`no goal starting "${start}" in ${JSON.stringify(goals.map((g) => g.what))}`);
    return found;
  };

  it('checks every event kind of command mode against 1.15x and names the worst', () => {
    expect(goal('command mode, every event kind')).toEqual(expect.objectContaining({ value: '1.25x (shipped packs, injects context)', limit: '<= 1.15x', ok: false }));
    expect(goal('command mode, 1,000 rules')).toEqual(expect.objectContaining({ value: '1.25x (1000 rules, Write src/app.ts)', limit: '<= 1.25x', ok: true }));
  });

  it('checks the first event after an edit, saved through lint and by hand, against 2x', () => {
    expect(goal('first event after a policy edit saved through policy lint')).toEqual(expect.objectContaining({ value: expect.stringMatching(/^1\.5x /), ok: true }));
    expect(goal('first event after a policy edit by hand')).toEqual(expect.objectContaining({ value: expect.stringMatching(/^4x /), ok: false }));
  });

  it('checks peak RSS of every runner event, SQLite ones included, against 1.1x', () => {
    expect(goal('peak RSS')).toEqual(expect.objectContaining({ value: '1.15x (memory store, searches memory)', limit: '<= 1.1x', ok: false }));
  });

  it("checks the daemon's slowest event kind, not the mix, against 1 ms", () => {
    expect(goal('daemon p50, every event kind, shipped packs')).toEqual(expect.objectContaining({ value: '0.9 ms (context)', ok: true }));
    expect(goal('daemon p50, every event kind, 1000 rules')).toEqual(expect.objectContaining({ value: '1.2 ms (heredoc)', ok: false }));
  });

  it('checks Write on 1,000 rules in process against 100,000/s and policy test against 3 s', () => {
    expect(goal('in-process, Write on 1,000 rules')).toEqual(expect.objectContaining({ value: '120000/s', ok: true }));
    expect(goal('policy test')).toEqual(expect.objectContaining({ value: '3.4 s', limit: '< 3 s', ok: false }));
  });
});
