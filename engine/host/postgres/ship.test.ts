import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { DecisionRecord } from '../decision-log';
import { parseItem } from './deliver';
import { shipToPostgres } from './ship';

const record: DecisionRecord = {
  time: '2026-01-15T10:00:00.000Z', session_id: 's1', event: 'PreToolUse', tool: 'Bash', agent: null, outcome: 'deny',
  rules: ['no-rm'], reason: 'no rm', paths: [], policy: ['/p/.claude/policies.yaml'],
};

describe('shipToPostgres (the runner\'s side)', () => {
  let folder: string;
  let spawned: Array<{ args: readonly string[]; env: NodeJS.ProcessEnv | undefined }>;
  const spawn = ((_: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv }) => {
    spawned.push({ args, env: options.env });
    return { on: () => undefined, unref: () => undefined };
  }) as never;
  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-outbox-'));
    spawned = [];
  });
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

  const queued = () => fs.readdirSync(folder).filter((n) => n.endsWith('.rec')).sort().map((n) => fs.readFileSync(path.join(folder, n), 'utf8'));

  it('does nothing without HOOKPOLICY_DATABASE_URL', () => {
    expect(shipToPostgres({}, '/p', [{ type: 'decision', record }], { folder, spawn })).toBeNull();
    expect([queued(), spawned]).toEqual([[], []]);
  });

  it('queues one item per record, each with its own id and the origin, and starts one shipper with the URL in its environment, not its arguments', () => {
    const env = { HOOKPOLICY_DATABASE_URL: 'postgres://ann:s3cret@db/team', HOOKPOLICY_PROJECT: 'shop' };
    const memory = { at: record.time, session: 's1', agent: null, event: 'PreToolUse', rule: 'no-rm', kind: 'denied', importance: 1, text: 'rm -rf /', fields: {} };
    expect(shipToPostgres(env, '/p', [{ type: 'decision', record }, { type: 'memory', record: memory }], { folder, spawn, script: '/dist/pg-shipper.cjs' })).toBeNull();
    const items = queued().map(parseItem);
    expect(items).toEqual([
      { v: 1, type: 'decision', id: expect.stringMatching(/^[0-9a-f-]{36}$/), origin: { project: 'shop', project_dir: '/p', host: os.hostname(), user: expect.any(String) }, record },
      { v: 1, type: 'memory', id: expect.stringMatching(/^[0-9a-f-]{36}$/), origin: expect.objectContaining({ project: 'shop' }), record: memory },
    ]);
    expect(items[0]!.id).not.toBe(items[1]!.id);
    expect(spawned).toHaveLength(1);
    expect(spawned[0].args).toEqual(['/dist/pg-shipper.cjs', folder]);
    expect(spawned[0].env?.HOOKPOLICY_DATABASE_URL).toBe('postgres://ann:s3cret@db/team');
  });

  it('a URL that is not PostgreSQL\'s: a postgres-error warning that never shows the URL, nothing queued', () => {
    const problem = shipToPostgres({ HOOKPOLICY_DATABASE_URL: 'http://ann:s3cret@db/team' }, '/p', [{ type: 'decision', record }], { folder, spawn });
    expect(problem).toEqual({ code: 'postgres-error', severity: 'warning', message: 'HOOKPOLICY_DATABASE_URL is not a postgres:// or postgresql:// URL (it starts with "http:"); 1 record(s) not shipped' });
    expect([queued(), spawned]).toEqual([[], []]);
  });

  it('an outbox that cannot be written: a postgres-error warning naming the folder', () => {
    const problem = shipToPostgres({ HOOKPOLICY_DATABASE_URL: 'postgres://db/team' }, '/p', [{ type: 'decision', record }], { folder: path.join(folder, 'missing'), spawn });
    expect(problem).toMatchObject({ code: 'postgres-error', message: expect.stringContaining('cannot queue records for PostgreSQL in') });
    expect(spawned).toEqual([]);
  });
});
