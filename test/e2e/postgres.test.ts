/**
 * PostgreSQL as the team's shared store, against a real server: a throw-away cluster
 * (test/support/postgres-server.ts) started once for this file. The schema's migrations
 * (from empty, again, at once from several clients, and through `policy db`), the built
 * runner shipping decision and memory records through its outbox (column values, the
 * answer unchanged while the database is down, every record once after it is back, a
 * killed shipper), SQL in record text, `policy memory search` through PostgreSQL's
 * full-text search, and bad URLs.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { migrate, migrationStatus } from '../../engine/host/postgres/migrate';
import { insertItems, parseItem, postgresDeliver } from '../../engine/host/postgres/deliver';
import type { ShipItem } from '../../engine/host/postgres/ship';
import { makeProject, type TempProject } from '../support/run-hook';
import { runCli } from '../support/run-cli';
import { diagnosticBlock } from '../support/doc-sections';
import { startFakeModel } from '../support/fake-model-server';
import { firstSession, memoryPolicy, runAsync } from '../support/memory-process';
import { postgresOrSkip, startPostgres, type PostgresServer } from '../support/postgres-server';

const bin = postgresOrSkip();
const describePg = bin ? describe : describe.skip;

const POLICY = `version: 1
settings:
  log: { file: .claude/decisions.jsonl }
rules:
  - id: no-rm
    on: PreToolUse
    tools: Bash
    command: ['^rm ']
    deny: "no rm"
    record: { kind: denied, importance: 1, text: "{{command}}", fields: { command: "{{command}}" } }
  - id: observe-commands
    on: PostToolUse
    tools: Bash
    record: { kind: command, text: "{{command}}" }
`;

let server: PostgresServer;
const timings: Record<string, number> = {};
const fileStarted = Date.now();

beforeAll(async () => {
  if (!bin) return;
  server = await startPostgres(bin);
  timings.clusterStartMs = server.startupMs;
}, 120_000);

afterAll(() => {
  server?.remove();
  timings.fileMs = Date.now() - fileStarted;
  if (bin) process.stdout.write(`postgres.test.ts: cluster started in ${timings.clusterStartMs} ms; file took ${timings.fileMs} ms\n`);
});

/** A connection to a database of the test cluster (default: the test database). */
async function connect(database?: string): Promise<Client> {
  const client = new Client({ connectionString: database ? server.url.replace(/\/[^/]+$/, `/${database}`) : server.url });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

async function freshDatabase(name: string): Promise<string> {
  const admin = await connect('postgres');
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return server.url.replace(/\/[^/]+$/, `/${name}`);
}

async function rows<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = await connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

async function rowsIn(url: string, sql: string): Promise<Array<Record<string, unknown>>> {
  const client = new Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Polls `probe` until it returns true (or throws after `ms`). */
async function eventually(probe: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      if (await probe()) return;
    } catch {
      // The database is not there yet.
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

const OUTBOX = 'postgres-outbox';
function outboxRecords(p: TempProject): string[] {
  try {
    return fs.readdirSync(path.join(p.cacheDir, OUTBOX)).filter((n) => /\.rec(\.\d+\.sending)?$/.test(n));
  } catch {
    return [];
  }
}

const bash = (session: string, command: string, hook = 'PreToolUse') =>
  ({ hook_event_name: hook, session_id: session, tool_name: 'Bash', tool_input: { command }, ...(hook === 'PostToolUse' ? { tool_response: {} } : {}) });

function item(type: 'memory', text: string, project: string, extra: Partial<ShipItem['record']> = {}): ShipItem {
  return {
    v: 1, type, id: crypto.randomUUID(), origin: { project, project_dir: `/home/ann/${project}`, host: 'ann-laptop', user: 'ann' },
    record: { at: new Date().toISOString(), session: 's1', agent: null, event: 'PostToolUse', rule: 'observe', kind: 'note', importance: 0.5, text, fields: {}, ...extra },
  } as ShipItem;
}

describe('the runner\'s bundle', () => {
  it('neither bundles nor requires pg: the hot path only queues files', () => {
    const hook = fs.readFileSync(path.join(__dirname, '..', '..', 'dist', 'hook.cjs'), 'utf8');
    expect(hook).not.toMatch(/require\("pg"\)|node_modules\/pg\//);
    expect(hook).toContain('pg-shipper.cjs');
  });
});

describePg('migrations', () => {
  it('from an empty database: every migration applied in order, the tables and the search index made; a second run applies nothing', async () => {
    const client = new Client({ connectionString: await freshDatabase('m_empty') });
    await client.connect();
    try {
      expect((await migrationStatus(client)).pending).toEqual([{ id: 1, name: 'decisions and memory records' }]);
      expect(await migrate(client)).toEqual([1]);
      expect(await migrate(client)).toEqual([]);
      const status = await migrationStatus(client);
      expect(status).toEqual({ applied: [{ id: 1, name: 'decisions and memory records', applied_at: expect.any(String) }], pending: [], unknown: [] });
      const tables = (await client.query(`SELECT tablename FROM pg_tables WHERE tablename LIKE 'hookpolicy_%' ORDER BY 1`)).rows.map((r) => r.tablename);
      expect(tables).toEqual(['hookpolicy_decisions', 'hookpolicy_memory', 'hookpolicy_migrations']);
      const gin = (await client.query(`SELECT indexdef FROM pg_indexes WHERE indexname = 'hookpolicy_memory_search'`)).rows[0].indexdef;
      expect(gin).toMatch(/USING gin \(search\)/);
      const generated = (await client.query(`SELECT is_generated, generation_expression FROM information_schema.columns WHERE table_name = 'hookpolicy_memory' AND column_name = 'search'`)).rows[0];
      expect(generated).toEqual({ is_generated: 'ALWAYS', generation_expression: expect.stringContaining('to_tsvector') });
    } finally {
      await client.end();
    }
  });

  it('eight clients migrating at once: applied exactly once, the others wait on the advisory lock and find nothing to do', async () => {
    const url = await freshDatabase('m_race');
    const clients = await Promise.all(Array.from({ length: 8 }, async () => {
      const c = new Client({ connectionString: url });
      await c.connect();
      return c;
    }));
    try {
      const applied = await Promise.all(clients.map((c) => migrate(c)));
      expect(applied.filter((a) => a.length > 0)).toEqual([[1]]);
      expect((await clients[0].query('SELECT count(*)::int AS n FROM hookpolicy_migrations')).rows[0].n).toBe(1);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  });

  it('policy db status (exit 1 while migrations are pending), policy db migrate, status again (exit 0), as text and JSON', async () => {
    const url = await freshDatabase('m_cli');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-db-'));
    const env = { HOOKPOLICY_DATABASE_URL: url, HOOKPOLICY_CACHE_DIR: dir };
    try {
      const before = runCli(['db', 'status'], { cwd: dir, env });
      expect([before.code, before.stderr]).toEqual([1, '']);
      expect(before.stdout).toContain('schema    1 migration pending (policy db migrate applies them)');
      expect(before.stdout).toContain('outbox    0 records waiting, 0 set aside');
      const migrated = runCli(['db', 'migrate'], { cwd: dir, env });
      expect([migrated.code, migrated.stdout, migrated.stderr]).toEqual([0, `${url}: applied 1 (decisions and memory records)\n`, '']);
      const again = runCli(['db', 'migrate', '--json'], { cwd: dir, env });
      expect(again.code).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ applied: [], status: { pending: [], applied: [{ id: 1 }] } });
      const after = runCli(['db', 'status', '--json'], { cwd: dir, env });
      expect(after.code).toBe(0);
      expect(JSON.parse(after.stdout)).toMatchObject({ database: url, pending: [], unknown: [], outbox: { waiting: 0, rejected: 0, shipper: null } });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describePg('delivery', () => {
  it('a batch delivered twice (its answer lost) inserts each row once; an item that is not one is set aside, the rest delivered', async () => {
    const url = await freshDatabase('d_twice');
    const batch = [item('memory', 'first', 'shop'), item('memory', 'second', 'shop')].map((i) => JSON.stringify(i));
    const { deliver, close } = postgresDeliver(url);
    try {
      expect(await deliver(batch)).toEqual(['sent', 'sent']);
      expect(await deliver([...batch, '{"v":1,"type":"memory"}', 'not json'])).toEqual(['sent', 'sent', 'rejected', 'rejected']);
    } finally {
      await close();
    }
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      expect((await client.query('SELECT text FROM hookpolicy_memory ORDER BY id')).rows).toEqual([{ text: 'first' }, { text: 'second' }]);
    } finally {
      await client.end();
    }
  });

  it('text PostgreSQL cannot hold (NUL, a lone surrogate) is stored with U+FFFD instead of holding the batch back', async () => {
    const parsed = parseItem(JSON.stringify(item('memory', 'a\u0000b\ud800c', 'shop')));
    expect(parsed?.record).toMatchObject({ text: 'a\ufffdb\ufffdc' });
    const client = await connect();
    try {
      await migrate(client);
      await insertItems(client, [parsed!]);
      expect((await client.query('SELECT text FROM hookpolicy_memory WHERE uid = $1', [parsed!.id])).rows).toEqual([{ text: 'a\ufffdb\ufffdc' }]);
    } finally {
      await client.end();
    }
  });
});

describePg('the runner ships to PostgreSQL', () => {
  let p: TempProject;
  beforeEach(() => {
    p = makeProject(POLICY);
  });
  afterEach(() => p.remove());

  it('a decision and its record arrive with their columns; the JSONL log and the journal are written as before', async () => {
    const env = { HOOKPOLICY_DATABASE_URL: server.url };
    const started = Date.now();
    const r = p.run({ ...bash('s-cols', 'rm -rf build'), agent_id: 'a1', agent_type: 'murdock' }, { env });
    const runnerMs = Date.now() - started;
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    expect(r.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no rm' } });
    expect(p.readJsonl('.claude/decisions.jsonl')).toEqual([expect.objectContaining({ outcome: 'deny', rules: ['no-rm'] })]);
    expect(p.readJsonl('.claude/hookpolicy/memory/journal.jsonl')).toEqual([expect.objectContaining({ kind: 'denied', text: 'rm -rf build' })]);
    await eventually(async () => (await rows(`SELECT 1 FROM hookpolicy_memory WHERE session = 's-cols'`)).length === 1 && (await rows(`SELECT 1 FROM hookpolicy_decisions WHERE session_id = 's-cols'`)).length === 1, 15_000, 'the rows');
    const project = path.basename(p.dir);
    const [decision] = await rows(`SELECT * FROM hookpolicy_decisions WHERE session_id = 's-cols'`);
    expect(decision).toMatchObject({
      event: 'PreToolUse', tool: 'Bash', agent: 'murdock', outcome: 'deny', rules: ['no-rm'], reason: 'no rm', paths: ['build'], errors: 0,
      project, project_dir: p.dir, host: os.hostname(), user_name: os.userInfo().username,
    });
    expect(decision.time).toBeInstanceOf(Date);
    expect(decision.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof decision.duration_ms).toBe('number');
    expect(decision.record).toEqual(p.readJsonl('.claude/decisions.jsonl')[0]);
    const [memory] = await rows(`SELECT * FROM hookpolicy_memory WHERE session = 's-cols'`);
    expect(memory).toMatchObject({
      agent: 'murdock', event: 'PreToolUse', rule: 'no-rm', kind: 'denied', importance: 1, text: 'rm -rf build', fields: { command: 'rm -rf build' },
      project, project_dir: p.dir, host: os.hostname(),
    });
    expect((memory.at as Date).toISOString()).toBe(p.readJsonl('.claude/hookpolicy/memory/journal.jsonl')[0].at);
    expect(outboxRecords(p)).toEqual([]);
    expect(runnerMs).toBeLessThan(5000);
  }, 30_000);

  it('record text with quotes and SQL is stored as it was: parameters only, nothing of it is SQL', async () => {
    const nasty = `rm x'; DROP TABLE hookpolicy_decisions; -- "$1" \\' $$ E'\\\\x00' ); DELETE FROM hookpolicy_memory; --`;
    const r = p.run(bash('s-sql', nasty), { env: { HOOKPOLICY_DATABASE_URL: server.url } });
    expect(r.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    await eventually(async () => (await rows(`SELECT 1 FROM hookpolicy_memory WHERE session = 's-sql'`)).length === 1 && (await rows(`SELECT 1 FROM hookpolicy_decisions WHERE session_id = 's-sql'`)).length === 1, 15_000, 'the rows');
    expect(await rows(`SELECT text, fields FROM hookpolicy_memory WHERE session = 's-sql'`)).toEqual([{ text: nasty, fields: { command: nasty } }]);
    expect((await rows<{ n: number }>('SELECT count(*)::int AS n FROM hookpolicy_decisions'))[0].n).toBeGreaterThan(0);
  }, 30_000);

  it('database down: answers unchanged and quick, records spooled; the shipper killed: still spooled; database back: every record arrives exactly once', async () => {
    const env = { HOOKPOLICY_DATABASE_URL: server.url };
    server.stop();
    try {
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const r = p.run(bash('s-down', `rm -rf down-${i}`), { env });
        expect([r.exitCode, r.stderr, Date.now() - started < 5000]).toEqual([0, '', true]);
        expect(r.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no rm' } });
      }
      // Two items per event (the decision, the record), waiting while the shipper retries.
      const lock = path.join(p.cacheDir, OUTBOX, 'sender.lock');
      await eventually(async () => fs.existsSync(lock), 10_000, 'the shipper to start');
      await new Promise((res) => setTimeout(res, 300));
      expect(outboxRecords(p)).toHaveLength(6);
      // The agent kills the shipper: the records stay where they are.
      const pid = Number(fs.readFileSync(lock, 'utf8'));
      process.kill(pid, 'SIGKILL');
      await new Promise((res) => setTimeout(res, 300));
      expect(outboxRecords(p)).toHaveLength(6);
    } finally {
      server.start();
    }
    // The dead shipper's lock names a process that is gone: the next event starts a new shipper at once, which delivers all of it.
    p.run(bash('s-down', 'rm -rf down-3'), { env });
    await eventually(async () => (await rows(`SELECT 1 FROM hookpolicy_decisions WHERE session_id = 's-down'`)).length === 4 && outboxRecords(p).length === 0, 30_000, 'every record');
    expect(await rows(`SELECT count(*)::int AS n, count(DISTINCT record->>'time' || (record->>'paths'))::int AS d FROM hookpolicy_decisions WHERE session_id = 's-down'`)).toEqual([{ n: 4, d: 4 }]);
    expect((await rows<{ text: string }>(`SELECT text FROM hookpolicy_memory WHERE session = 's-down' ORDER BY at, id`)).map((x) => x.text).sort())
      .toEqual(['rm -rf down-0', 'rm -rf down-1', 'rm -rf down-2', 'rm -rf down-3']);
  }, 60_000);

  it('sixteen runners at once: every record arrives exactly once', async () => {
    const env = { HOOKPOLICY_DATABASE_URL: server.url };
    const runs = await Promise.all(Array.from({ length: 16 }, (_, i) => runAsync(p, bash('s-burst', `rm -rf burst-${i}`), env)));
    expect(runs.filter((r) => r.code !== 0 || r.stderr !== '')).toEqual([]);
    await eventually(async () => (await rows(`SELECT 1 FROM hookpolicy_memory WHERE session = 's-burst'`)).length >= 16 && (await rows(`SELECT 1 FROM hookpolicy_decisions WHERE session_id = 's-burst'`)).length >= 16 && outboxRecords(p).length === 0, 20_000, 'every record');
    const texts = (await rows<{ text: string }>(`SELECT text FROM hookpolicy_memory WHERE session = 's-burst'`)).map((r) => r.text).sort();
    expect(texts).toEqual(Array.from({ length: 16 }, (_, i) => `rm -rf burst-${i}`).sort());
    expect(await rows(`SELECT count(*)::int AS n FROM hookpolicy_decisions WHERE session_id = 's-burst'`)).toEqual([{ n: 16 }]);
  }, 40_000);

  it('the memory process\'s prose summary is shipped too', async () => {
    // A database of its own: its JWT summary must not show up in the search tests' results.
    const url = await freshDatabase('prose');
    const model = await startFakeModel();
    const q = makeProject(memoryPolicy(`    summarizer: { url: "${model.url}", api: anthropic, model: claude-haiku-4-5, key_env: TEAM_KEY }`));
    try {
      model.options.summary = 'Built the JWT middleware; the build passes.';
      const end = await firstSession(q, 's-prose', { TEAM_KEY: 'k', HOOKPOLICY_DATABASE_URL: url });
      expect([end.code, end.stderr]).toEqual([0, '']);
      await eventually(async () => (await rowsIn(url, `SELECT 1 FROM hookpolicy_memory WHERE session = 's-prose' AND fields->>'source' = 'anthropic'`)).length === 1, 20_000, 'the prose summary');
      expect(await rowsIn(url, `SELECT kind, text, fields->>'model' AS model FROM hookpolicy_memory WHERE session = 's-prose' AND kind = 'summary' ORDER BY id`)).toEqual([
        { kind: 'summary', text: '1 file changed (src/auth/jwt.ts); 1 command (npm run build)', model: null },
        { kind: 'summary', text: 'Built the JWT middleware; the build passes.', model: 'claude-haiku-4-5' },
      ]);
    } finally {
      q.remove();
      await model.close();
    }
  }, 40_000);

  it('the agent cannot plant, edit or remove outbox items: the cache folder is hookpolicy\'s own (self-protection)', () => {
    const env = { HOOKPOLICY_DATABASE_URL: server.url };
    const outbox = path.join(p.cacheDir, OUTBOX);
    const attempts = [
      { tool_name: 'Write', tool_input: { file_path: path.join(outbox, 'zz-forged.rec'), content: '{"v":1}' } },
      { tool_name: 'Bash', tool_input: { command: `echo '{"v":1}' > ${outbox}/zz-forged.rec` } },
      { tool_name: 'Bash', tool_input: { command: `mv ${outbox} /tmp/gone` } },
    ];
    for (const attempt of attempts) {
      const r = p.run({ hook_event_name: 'PreToolUse', session_id: 's-plant', ...attempt }, { env });
      const answer = (r.json as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } }).hookSpecificOutput;
      expect([attempt.tool_input, answer.permissionDecision, answer.permissionDecisionReason]).toEqual([attempt.tool_input, 'deny', expect.stringContaining('hookpolicy')]);
    }
  });

  it('a bad URL changes no answer: a postgres-error warning naming the variable, never the URL', () => {
    const r = p.run(bash('s-bad', 'rm -rf x'), { env: { HOOKPOLICY_DATABASE_URL: 'mysql://root:hunter2@db/x' } });
    expect(r.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no rm' } });
    // docs/diagnostics.md's example, once for the decision and once for its memory record.
    const [, , example] = /^\$ (.*)\n(.*)\n$/.exec(diagnosticBlock('postgres-error', 'console'))!;
    expect(r.stderr.split('\n').filter((l) => l !== '')).toEqual([example, example]);
    expect(r.stderr).not.toContain('hunter2');
    expect(outboxRecords(p)).toEqual([]);
  });
});

describePg('policy memory search through PostgreSQL', () => {
  let p: TempProject;
  let project: string;
  beforeAll(async () => {
    p = makeProject(POLICY);
    project = path.basename(p.dir);
    const client = await connect();
    try {
      await migrate(client);
      await insertItems(client, [
        item('memory', 'added the JWT middleware to the auth routes', project),
        item('memory', 'JWT middleware tests pass; the JWT secret rotates daily', project),
        item('memory', 'renamed the billing module', project),
        item('memory', 'JWT middleware in the other team\'s service', 'other-service'),
      ]);
    } finally {
      await client.end();
    }
  });
  afterAll(() => p?.remove());

  const search = (args: string[], env: Record<string, string> = {}) =>
    runCli(['memory', 'search', ...args], { cwd: p.dir, env: { HOOKPOLICY_DATABASE_URL: server.url, HOOKPOLICY_CACHE_DIR: p.cacheDir, ...env } });

  it('this project\'s records, best first, in the SQLite path\'s format', () => {
    const r = search(['jwt', 'middleware']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/^#\d+\s+0\.\d\d\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+note\s+\(main\)\s+/);
    expect(lines[0]).toContain('JWT middleware tests pass');
    expect(lines[1]).toContain('added the JWT middleware');
  });

  it('--team: every project\'s; --json: with project, host and user, relevance descending', () => {
    const r = search(['jwt', 'middleware', '--team', '--json']);
    expect(r.code).toBe(0);
    const found = JSON.parse(r.stdout) as Array<{ text: string; relevance: number; project: string; host: string; user: string }>;
    expect(found.map((f) => f.project).sort()).toEqual([project, project, 'other-service'].sort());
    expect(found[0]).toMatchObject({ host: 'ann-laptop', user: 'ann', kind: 'note' });
    expect(found.map((f) => f.relevance)).toEqual([...found.map((f) => f.relevance)].sort((a, b) => b - a));
  });

  it('web-search syntax: a phrase, a word left out; SQL in the query is only words', () => {
    expect(search(['"JWT secret"']).stdout).toContain('rotates daily');
    expect(search(['jwt -tests']).stdout.trimEnd().split('\n')).toEqual([expect.stringContaining('added the JWT middleware')]);
    const r = search([`x'); DROP TABLE hookpolicy_memory; --`]);
    expect([r.code, r.stdout]).toEqual([0, 'nothing found\n']);
  });

  it('--local searches this machine\'s store instead; --team without a database is a usage error', () => {
    expect(search(['jwt', '--local']).stdout).toBe('nothing found\n');
    const r = runCli(['memory', 'search', 'jwt', '--team'], { cwd: p.dir, env: { HOOKPOLICY_CACHE_DIR: p.cacheDir } });
    expect([r.code, r.stderr]).toEqual([2, 'policy memory search: --team searches the team database: set HOOKPOLICY_DATABASE_URL\n']);
  });

  it('a database that cannot be reached: exit 2 and where it looked, the password hidden', () => {
    const r = search(['jwt'], { HOOKPOLICY_DATABASE_URL: 'postgres://ann:hunter2@127.0.0.1:1/team' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^policy memory search: cannot connect to PostgreSQL at postgres:\/\/ann:\*\*\*@127\.0\.0\.1:1\/team: .*ECONNREFUSED/);
    expect(r.stderr).not.toContain('hunter2');
  });
});

describePg('bad URLs for policy db', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-db-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const db = (url: string | undefined) => runCli(['db', 'status'], { cwd: dir, env: { HOOKPOLICY_DATABASE_URL: url, HOOKPOLICY_CACHE_DIR: dir } });

  it.each([
    [undefined, 'policy db status: no database: set HOOKPOLICY_DATABASE_URL to a postgres:// URL (docs/operations.md#postgresql)\n'],
    ['not a url', 'policy db status: HOOKPOLICY_DATABASE_URL is not a URL (expected postgres://user:password@host:5432/database)\n'],
    ['https://db.example/team', 'policy db status: HOOKPOLICY_DATABASE_URL is not a postgres:// or postgresql:// URL (it starts with "https:")\n'],
    ['postgres://db.example', 'policy db status: HOOKPOLICY_DATABASE_URL names no database (expected postgres://user:password@host:5432/database)\n'],
  ])('%s: exit 2, %s', (url, message) => {
    expect(db(url)).toEqual({ code: 2, stdout: '', stderr: message });
  });

  it('a database that does not exist: exit 2 with the server\'s word for it, the outbox shown', () => {
    const r = db(server.url.replace(/\/[^/]+$/, '/no_such_db'));
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('outbox    0 records waiting');
    expect(r.stderr).toContain('database "no_such_db" does not exist');
  });
});

/** The ```console blocks of a doc: each `$ command` with the lines it printed. */
function consoleExamples(file: string): Array<{ command: string; output: string }> {
  const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', file), 'utf8');
  const examples: Array<{ command: string; output: string }> = [];
  for (const block of doc.matchAll(/```console\n([\s\S]*?)```/g)) {
    for (const part of block[1].split(/^\$ /m).slice(1)) {
      const [command, ...lines] = part.split('\n');
      examples.push({ command, output: lines.join('\n') });
    }
  }
  return examples;
}

/** A ```sql block of docs/operations.md's PostgreSQL section, by its first words. */
function operationsSql(startsWith: string): string {
  const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'operations.md'), 'utf8');
  const section = doc.slice(doc.indexOf('\n## PostgreSQL\n'));
  const block = [...section.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.startsWith(startsWith));
  if (!block) throw new Error(`no sql block starting with ${startsWith} in docs/operations.md`);
  return block;
}

describePg('the docs\' examples', () => {
  const DOC_URL = 'postgres://owner:***@db.example.com:5432/hookpolicy';
  const DOC_FOLDER = '/home/ann/.cache/hookpolicy/postgres-outbox';

  it('docs/commands/db.md: migrate twice, status with a shipper that delivered, status with one that cannot connect', async () => {
    const url = await freshDatabase('docs_db');
    const p = makeProject(POLICY);
    try {
      const folder = path.join(p.cacheDir, OUTBOX);
      const times = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g;
      const docTimes = ['2026-01-15T10:00:00.000Z', '2026-01-15T10:05:00.000Z'];
      const normal = (text: string, dbUrl: string) => {
        let n = 0;
        return text.split(dbUrl).join(DOC_URL).split(folder).join(DOC_FOLDER)
          .replace(times, () => docTimes[Math.min(n++, 1)]).replace(/ECONNREFUSED 127\.0\.0\.1:\d+/g, 'ECONNREFUSED 10.0.0.5:5432');
      };
      const examples = consoleExamples('commands/db.md');
      expect(examples.map((e) => e.command)).toEqual(['policy db migrate', 'policy db migrate', 'policy db status', 'policy db status']);
      const env = { HOOKPOLICY_DATABASE_URL: url, HOOKPOLICY_CACHE_DIR: p.cacheDir };
      for (const e of examples.slice(0, 2)) expect(normal(runCli(['db', 'migrate'], { cwd: p.dir, env }).stdout, url)).toBe(e.output);
      // A shipper that delivered: its state is ok.
      p.run(bash('s-docs', 'rm -rf docs'), { env: { HOOKPOLICY_DATABASE_URL: url } });
      await eventually(async () => fs.existsSync(path.join(folder, 'shipper-state.json')) && outboxRecords(p).length === 0, 15_000, 'the shipper');
      const ok = runCli(['db', 'status'], { cwd: p.dir, env });
      expect([ok.code, normal(ok.stdout, url)]).toEqual([0, examples[2].output]);
      // A database nobody answers for: the records wait, the shipper says why.
      const down = `postgres://owner:pw@127.0.0.1:${await import('../support/postgres-server').then((m) => m.freePort())}/hookpolicy`;
      const downShown = down.replace(':pw@', ':***@');
      // The shipper of the first database ends once idle: a live one would take the next record too.
      await eventually(async () => !fs.existsSync(path.join(folder, 'sender.lock')), 15_000, 'the first shipper to end');
      p.run(bash('s-docs-down', 'rm -rf down'), { env: { HOOKPOLICY_DATABASE_URL: down } });
      await eventually(async () => /failing|"ok":false/.test(fs.readFileSync(path.join(folder, 'shipper-state.json'), 'utf8')), 15_000, `the failing state (${fs.readdirSync(folder).join(', ')}: ${fs.readFileSync(path.join(folder, 'shipper-state.json'), 'utf8')})`);
      const failing = runCli(['db', 'status'], { cwd: p.dir, env: { ...env, HOOKPOLICY_DATABASE_URL: down } });
      expect(failing.code).toBe(2);
      expect(normal(failing.stdout + failing.stderr, downShown)).toBe(examples[3].output);
      process.kill(Number(fs.readFileSync(path.join(folder, 'sender.lock'), 'utf8')), 'SIGKILL');
    } finally {
      p.remove();
    }
  }, 45_000);

  it('docs/operations.md: the roles; the hooks\' writer inserts and can do nothing else, the reader searches; the questions run', async () => {
    const url = await freshDatabase('docs_roles');
    const admin = new Client({ connectionString: url });
    await admin.connect();
    try {
      await migrate(admin);
      await admin.query(operationsSql('CREATE ROLE'));
    } finally {
      await admin.end();
    }
    const as = (role: string) => url.replace('postgres://postgres@', `postgres://${role}:pw@`);
    // The writer, through the shipper: the schema is up to date, so it never needs CREATE.
    const states: unknown[] = [];
    const { deliver, close } = postgresDeliver(as('hookpolicy_writer'), { onState: (st) => states.push(st) });
    try {
      expect([await deliver([JSON.stringify(item('memory', 'denied rm -rf in the shop', 'shop'))]), states]).toEqual([['sent'], [expect.objectContaining({ ok: true })]]);
    } finally {
      await close();
    }
    const writer = new Client({ connectionString: as('hookpolicy_writer') });
    await writer.connect();
    try {
      for (const sql of ['DELETE FROM hookpolicy_memory', 'UPDATE hookpolicy_memory SET text = \'x\'', 'SELECT text FROM hookpolicy_memory', 'TRUNCATE hookpolicy_decisions', 'DROP TABLE hookpolicy_memory']) {
        await expect(writer.query(sql)).rejects.toThrow(/permission denied|must be owner/);
      }
    } finally {
      await writer.end();
    }
    const p = makeProject(POLICY);
    try {
      const r = runCli(['memory', 'search', 'denied', '--team'], { cwd: p.dir, env: { HOOKPOLICY_DATABASE_URL: as('hookpolicy_reader'), HOOKPOLICY_CACHE_DIR: p.cacheDir } });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toContain('denied rm -rf in the shop');
      const asWriter = runCli(['memory', 'search', 'denied', '--team'], { cwd: p.dir, env: { HOOKPOLICY_DATABASE_URL: as('hookpolicy_writer'), HOOKPOLICY_CACHE_DIR: p.cacheDir } });
      expect([asWriter.code, asWriter.stderr]).toEqual([2, 'policy memory search: the database refused: permission denied for table hookpolicy_memory (SQLSTATE 42501)\n']);
    } finally {
      p.remove();
    }
    const reader = new Client({ connectionString: as('hookpolicy_reader') });
    await reader.connect();
    try {
      for (const sql of operationsSql('-- what was denied').split(/;\n/).filter((s) => s.trim() !== '')) await reader.query(sql);
    } finally {
      await reader.end();
    }
  });

  it('docs/memory.md: search in the team database', async () => {
    const url = await freshDatabase('docs_memory');
    const p = makeProject(POLICY);
    try {
      const project = path.basename(p.dir);
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        await migrate(client);
        await insertItems(client, [
          item('memory', 'added the JWT middleware to the auth routes', project, { at: '2026-01-14T09:12:00.000Z', kind: 'file-change' }),
          item('memory', 'JWT middleware tests pass; the JWT secret rotates daily', project, { at: '2026-01-15T10:02:00.000Z', kind: 'test', agent: 'murdock' }),
          item('memory', 'JWT middleware of another project', 'another-project'),
        ]);
      } finally {
        await client.end();
      }
      const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'memory.md'), 'utf8');
      const section = doc.slice(doc.indexOf('## Search in the team database'));
      const [, command, shown] = /```console\n\$ policy (.*)\n([\s\S]*?)```/.exec(section)!;
      const r = runCli(command.split(' '), { cwd: p.dir, env: { HOOKPOLICY_DATABASE_URL: url, HOOKPOLICY_CACHE_DIR: p.cacheDir } });
      expect([r.code, r.stdout, r.stderr]).toEqual([0, shown, '']);
    } finally {
      p.remove();
    }
  });

  it('docs/operations.md: with the variable set, a policy without log.file still ships its decisions', async () => {
    const p = makeProject(POLICY.replace('  log: { file: .claude/decisions.jsonl }\n', '  on_error: open\n'));
    try {
      const r = p.run(bash('s-nofile', 'rm -rf nofile'), { env: { HOOKPOLICY_DATABASE_URL: server.url } });
      expect(r.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
      expect(fs.existsSync(p.file('.claude/decisions.jsonl'))).toBe(false);
      await eventually(async () => (await rows(`SELECT 1 FROM hookpolicy_decisions WHERE session_id = 's-nofile'`)).length === 1, 15_000, 'the decision');
    } finally {
      p.remove();
    }
  });
});
