import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ruleStats } from './decision-log-stats';

const line = (time: string, session: string, outcome: string, rules: unknown, more: Record<string, unknown> = {}) =>
  JSON.stringify({ time, session_id: session, event: 'PreToolUse', outcome, rules, ...more });

describe('ruleStats', () => {
  let file: string;
  beforeAll(() => {
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-rule-stats-')), 'decisions.jsonl');
    fs.writeFileSync(file, [
      line('2026-01-14T09:00:00Z', 'a', 'deny', ['no-env'], { duration_ms: 1.5 }),
      line('2026-01-14T09:01:00Z', 'a', 'ask', ['ask-db', 'ask-db'], { duration_ms: 4 }),
      line('2026-01-15T09:00:00Z', 'b', 'deny', ['no-env', 'no-rm'], { duration_ms: 12.25, errors: ['error deadline-exceeded: ...'] }),
      line('2026-01-15T09:01:00Z', 'b', 'none', ['remind'], { event: 'Stop' }),
      'torn {',
      JSON.stringify({ time: 't', outcome: 'deny' }),
      '',
    ].join('\n'));
  });
  afterAll(() => fs.rmSync(path.dirname(file), { recursive: true, force: true }));

  it('counts each decision once per rule it names, under its outcome; malformed lines skipped', () => {
    expect(ruleStats(file, {})).toEqual({
      file,
      decisions: 4,
      rules: {
        'ask-db': { deny: 0, ask: 1, allow: 0, block: 0, other: 0, total: 1 },
        'no-env': { deny: 2, ask: 0, allow: 0, block: 0, other: 0, total: 2 },
        'no-rm': { deny: 1, ask: 0, allow: 0, block: 0, other: 0, total: 1 },
        remind: { deny: 0, ask: 0, allow: 0, block: 0, other: 1, total: 1 },
      },
      handlers: {
        PreToolUse: { count: 3, errors: 1, durationMs: { mean: 5.92, p50: 4, max: 12.25 } },
        Stop: { count: 1, errors: 0, durationMs: null },
      },
    });
  });

  it('filters by session and time', () => {
    expect(Object.keys(ruleStats(file, { session: 'a' })?.rules ?? {})).toEqual(['ask-db', 'no-env']);
    expect(ruleStats(file, { sinceMs: Date.parse('2026-01-15T00:00:00Z') })?.decisions).toBe(2);
  });

  it('is null for a log that does not exist', () => {
    expect(ruleStats(`${file}.missing`, {})).toBeNull();
  });
});
