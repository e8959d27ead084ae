/**
 * The webhook may be down, slow or failing: the hook's answer is never delayed by it (the
 * runner ends before a slow server even answers) and the JSONL line is written every time.
 * And the spool holds only what a runner queued to the policy's webhook: a record planted
 * there that is a link to /dev/zero (the sender grew to 6 GB) or a FIFO (delivery blocked
 * for good) is set aside unread, and one naming its own URL and allowed variables (the
 * sender POSTed the team's token elsewhere) is sent where the policy says, without them.
 * Real HTTP servers on 127.0.0.1, ephemeral ports, and the real sender.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { refusedUrl, startSink, type HttpSink } from '../support/http-sink';
import { ensureBuilt, makeSandbox, outboxFolders, responseProblems, spawnHook, type Sandbox, type SpawnResult } from '../support/hook-process';

const RUNS = 5;
const DENY = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":".env holds secrets."}}\n';

const policy = (url: string, timeoutMs: number) => [
  'version: 1',
  'settings:',
  '  log:',
  '    file: logs/decisions.jsonl',
  `    webhook: { url: "${url}", timeout_ms: ${timeoutMs} }`,
  'rules:',
  '  - id: no-env',
  '    on: PreToolUse',
  '    tools: Write',
  '    paths: { deny: [".env"] }',
  '    deny: "{{path}} holds secrets."',
  '',
].join('\n');

let box: Sandbox | undefined;
let sink: HttpSink | undefined;

beforeAll(() => ensureBuilt(), 120_000);
afterEach(async () => {
  await sink?.close();
  box?.remove();
  sink = undefined;
  box = undefined;
});

/** RUNS runners at once, each with its own session id; the cache is warmed first. */
async function runAll(b: Sandbox): Promise<SpawnResult[]> {
  const event = (session: string) => JSON.stringify({
    hook_event_name: 'PreToolUse', session_id: session, tool_name: 'Write', tool_input: { file_path: `${b.dir}/.env`, content: 'x' },
  });
  const opts = { projectDir: b.dir, cacheDir: b.cacheDir };
  const warm = await spawnHook(event('warm'), opts);
  expect(warm).toMatchObject({ stdout: DENY, stderr: '', exitCode: 0 });
  return Promise.all(Array.from({ length: RUNS }, (_, i) => spawnHook(event(`s-${i}`), opts)));
}

/** Every runner answered the deny, with nothing on stderr: the webhook's trouble is not theirs. */
function expectAnswered(results: SpawnResult[]): void {
  for (const r of results) {
    expect(responseProblems(r)).toEqual([]);
    expect(r).toMatchObject({ stdout: DENY, stderr: '', exitCode: 0 });
  }
}

/** The log holds one whole line per run (plus the warm-up), each session once. */
function expectLogged(b: Sandbox): void {
  const lines = fs.readFileSync(b.file('logs/decisions.jsonl'), 'utf8').trimEnd().split('\n');
  const sessions = lines.map((l) => (JSON.parse(l) as { session_id: string }).session_id).sort();
  expect(sessions).toEqual(['warm', ...Array.from({ length: RUNS }, (_, i) => `s-${i}`)].sort());
}

describe('webhook trouble never delays the answer nor loses the log line', () => {
  it('down (connection refused)', async () => {
    box = makeSandbox({ '.claude/policies.yaml': policy(await refusedUrl(), 1000) });
    expectAnswered(await runAll(box));
    expectLogged(box);
  });

  it('slow: the runners end before the server has sent a single response', async () => {
    sink = await startSink({ delayMs: 5000 });
    // timeout_ms longer than the delay: the senders are still waiting when the runners end.
    box = makeSandbox({ '.claude/policies.yaml': policy(sink.url, 10_000) });
    const results = await runAll(box);
    const lastEnd = Math.max(...results.map((r) => r.endedAt));
    expectAnswered(results);
    expectLogged(box);
    // Ordering, not timing: every runner had exited while no response had been sent yet.
    expect(sink.responsesSentAt.filter((t) => t <= lastEnd)).toEqual([]);
    const arrived = await sink.waitFor(RUNS + 1, 4000);
    expect(arrived.length).toBe(RUNS + 1);
    expect(sink.responsesSentAt).toEqual([]);
  }, 30_000);

  it('slower than timeout_ms: the log line is still there, and the record is tried again', async () => {
    sink = await startSink({ delayMs: 5000 });
    box = makeSandbox({ '.claude/policies.yaml': policy(sink.url, 200) });
    const results = await runAll(box);
    expectAnswered(results);
    expectLogged(box);
    // Each POST timed out after 200 ms: the same records come again after the backoff.
    const arrived = await sink.waitFor(2 * (RUNS + 1), 8000);
    const sessions = arrived.map((r) => (JSON.parse(r.body) as { session_id: string }).session_id);
    expect(new Set(sessions).size).toBe(RUNS + 1);
    expect(sessions.length).toBeGreaterThanOrEqual(2 * (RUNS + 1));
  }, 30_000);

  it('answers 500, then 200: every record arrives, each taken once, with the same idempotency key on each try', async () => {
    sink = await startSink({ status: (i) => (i < RUNS + 1 ? 500 : 200) });
    box = makeSandbox({ '.claude/policies.yaml': policy(sink.url, 1000) });
    expectAnswered(await runAll(box));
    expectLogged(box);
    const all = ['warm', ...Array.from({ length: RUNS }, (_, i) => `s-${i}`)].sort();
    await sink.waitFor(2 * (RUNS + 1), 8000);
    const session = (r: { body: string }) => (JSON.parse(r.body) as { session_id: string }).session_id;
    await waitUntil(() => new Set(sink!.requests.slice(RUNS + 1).map(session)).size === RUNS + 1, 10_000);
    const received = sink.requests;
    expect(received[0].headers['content-type']).toBe('application/json');
    // Every try of a record carries its one key; records have keys of their own.
    const keys = new Map<string, Set<unknown>>();
    for (const r of received) keys.set(session(r), (keys.get(session(r)) ?? new Set()).add(r.headers['idempotency-key']));
    expect([...keys.keys()].sort()).toEqual(all);
    expect([...keys.values()].every((k) => k.size === 1)).toBe(true);
    expect(new Set([...keys.values()].map((k) => [...k][0])).size).toBe(RUNS + 1);
    // Taken once (200): no record is sent again after that.
    const before = received.length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(sink.requests.slice(RUNS + 1).map(session).sort()).toEqual(all);
    expect(sink.requests).toHaveLength(before);
  }, 30_000);

  it('down, then up on the same port: nothing is lost', async () => {
    const url = await refusedUrl();
    box = makeSandbox({ '.claude/policies.yaml': policy(url, 1000) });
    expectAnswered(await runAll(box));
    expectLogged(box);
    await new Promise((resolve) => setTimeout(resolve, 300));
    sink = await startSink({ port: Number(new URL(url).port) });
    const received = await sink.waitFor(RUNS + 1, 15_000);
    expect(received.map((r) => (JSON.parse(r.body) as { session_id: string }).session_id).sort())
      .toEqual(['warm', ...Array.from({ length: RUNS }, (_, i) => `s-${i}`)].sort());
  }, 30_000);

  it('a refusal no retry can change (400) is set aside in rejected/, not retried, not lost', async () => {
    sink = await startSink({ status: 400 });
    box = makeSandbox({ '.claude/policies.yaml': policy(sink.url, 1000) });
    expectAnswered(await runAll(box));
    await sink.waitFor(RUNS + 1, 8000);
    const rejected = path.join(spoolOf(box), 'rejected');
    await waitUntil(() => fs.existsSync(rejected) && fs.readdirSync(rejected).length === RUNS + 1, 5000);
    await sink.waitFor(RUNS + 2, 2500);
    expect(sink.requests).toHaveLength(RUNS + 1);
  }, 30_000);
});

/**
 * The webhook sender processes started for this sandbox (Linux: found through /proc by the
 * HOOKPOLICY_CACHE_DIR they inherited from their runner).
 */
function senders(b: Sandbox): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(path.join('/proc', entry, 'cmdline'), 'utf8');
      if (!cmdline.includes('webhook-sender.cjs')) continue;
      if (fs.readFileSync(path.join('/proc', entry, 'environ'), 'utf8').split('\0').includes(`HOOKPOLICY_CACHE_DIR=${b.cacheDir}`)) pids.push(Number(entry));
    } catch {
      // Ended meanwhile.
    }
  }
  return pids;
}

const linux = process.platform === 'linux' ? describe : describe.skip;

linux('senders do not pile up (one per spool, timeout_ms capped)', () => {
  it('30 events against a slow webhook: at most one sender at a time (a second only while it gives way), every record arrives', async () => {
    // Measured before: each event left its own sender alive for up to timeout_ms (52 after 52 events).
    sink = await startSink({ delayMs: 1500 });
    box = makeSandbox({ '.claude/policies.yaml': policy(sink.url, 10_000) });
    const b = box;
    let most = 0;
    const sampler = setInterval(() => { most = Math.max(most, senders(b).length); }, 25);
    try {
      const opts = { projectDir: b.dir, cacheDir: b.cacheDir };
      for (let i = 0; i < 30; i++) {
        const event = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: `p-${i}`, tool_name: 'Write', tool_input: { file_path: `${b.dir}/.env`, content: 'x' } });
        expect(await spawnHook(event, opts)).toMatchObject({ stdout: DENY, exitCode: 0 });
      }
      const arrived = await sink.waitFor(30, 30_000);
      expect(arrived.map((r) => (JSON.parse(r.body) as { session_id: string }).session_id).sort())
        .toEqual(Array.from({ length: 30 }, (_, i) => `p-${i}`).sort());
    } finally {
      clearInterval(sampler);
    }
    expect(most).toBeGreaterThanOrEqual(1);
    expect(most).toBeLessThanOrEqual(2);
    // The spool holds nothing once every record was sent.
    const spool = spoolOf(b);
    await waitUntil(() => fs.readdirSync(spool).filter((n) => !n.startsWith('sender.lock')).length === 0, 5000);
  }, 90_000);

  it('timeout_ms is capped at 10 s: a POST to a webhook that never answers is given up by then, and tried again', async () => {
    sink = await startSink({ delayMs: 120_000 });
    box = makeSandbox({ '.claude/policies.yaml': policy(sink.url, 600_000) });
    const b = box;
    const event = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'cap', tool_name: 'Write', tool_input: { file_path: `${b.dir}/.env`, content: 'x' } });
    const ran = await spawnHook(event, { projectDir: b.dir, cacheDir: b.cacheDir });
    expect(ran).toMatchObject({ stdout: DENY, exitCode: 0 });
    await sink.waitFor(1, 5000);
    expect(senders(b).length).toBe(1);
    // 10 s for the POST, then 1 s of backoff: the second try comes then, from the same sender.
    const tries = await sink.waitFor(2, 20_000);
    expect(tries).toHaveLength(2);
    const gap = tries[1].arrivedAt - tries[0].arrivedAt;
    expect(gap).toBeGreaterThanOrEqual(10_000);
    expect(gap).toBeLessThan(16_000);
    expect(senders(b).length).toBe(1);
  }, 40_000);
});

const posix = process.platform === 'win32' ? describe.skip : describe;

posix('the spool holds only what a runner queued, sent where the policy says', () => {
  const sessions = (requests: Array<{ body: string }>) => requests.map((r) => (JSON.parse(r.body) as { session_id?: string }).session_id ?? '(planted)').sort();
  const all = ['warm', ...Array.from({ length: RUNS }, (_, i) => `s-${i}`)].sort();

  /** Plants `plant(file)` as the first record of the spool (after the warm-up made it), then runs the events. */
  async function withPlanted(b: Sandbox, plant: (file: string) => void, env: Record<string, string> = {}): Promise<string> {
    const opts = { projectDir: b.dir, cacheDir: b.cacheDir, env };
    const event = (session: string) => JSON.stringify({ hook_event_name: 'PreToolUse', session_id: session, tool_name: 'Write', tool_input: { file_path: `${b.dir}/.env`, content: 'x' } });
    expect(await spawnHook(event('warm'), opts)).toMatchObject({ stdout: DENY, stderr: '', exitCode: 0 });
    const planted = path.join(spoolOf(b), '000000000-planted-0000-aaaaaaaa.rec');
    plant(planted);
    expectAnswered(await Promise.all(Array.from({ length: RUNS }, (_, i) => spawnHook(event(`s-${i}`), opts))));
    return planted;
  }

  it('a record that is a link to /dev/zero: not followed, set aside; every record arrives', async () => {
    sink = await startSink();
    box = makeSandbox({ '.claude/policies.yaml': policy(sink.url, 1000) });
    const b = box;
    const planted = await withPlanted(b, (file) => fs.symlinkSync('/dev/zero', file));
    await sink.waitFor(RUNS + 1, 8000);
    expect(sessions(sink.requests)).toEqual(all);
    const aside = path.join(spoolOf(b), 'rejected', path.basename(planted));
    await waitUntil(() => fs.lstatSync(aside, { throwIfNoEntry: false })?.isSymbolicLink() === true, 5000);
    expect(fs.readlinkSync(aside)).toBe('/dev/zero');
  }, 30_000);

  it('a record that is a FIFO: never waited on, set aside; every record arrives', async () => {
    sink = await startSink();
    box = makeSandbox({ '.claude/policies.yaml': policy(sink.url, 1000) });
    const b = box;
    const planted = await withPlanted(b, (file) => execFileSync('mkfifo', [file]));
    await sink.waitFor(RUNS + 1, 8000);
    expect(sessions(sink.requests)).toEqual(all);
    await waitUntil(() => fs.existsSync(path.join(spoolOf(b), 'rejected', path.basename(planted))), 5000);
  }, 30_000);

  it('a planted envelope naming its own url and allowed_env_vars: nothing goes there, no token leaves', async () => {
    sink = await startSink();
    const elsewhere = await startSink();
    try {
      box = makeSandbox({ '.claude/policies.yaml': policy(sink.url, 1000) });
      const envelope = {
        webhook: { url: elsewhere.url, timeoutMs: 1000, headers: { Authorization: 'Bearer ${HP_WEBHOOK_TOKEN}' }, allowedEnvVars: ['HP_WEBHOOK_TOKEN'] },
        record: { note: 'planted' },
        id: 'planted-1',
      };
      await withPlanted(box, (file) => fs.writeFileSync(file, JSON.stringify(envelope)), { HP_WEBHOOK_TOKEN: 'sekret-token' });
      await sink.waitFor(RUNS + 2, 8000);
      await elsewhere.waitFor(1, 1500);
      expect(elsewhere.requests).toEqual([]);
      // The record went where the policy says, with the policy's headers (none): the token stayed home.
      expect(sessions(sink.requests)).toEqual(['(planted)', ...all].sort());
      expect(sink.requests.filter((r) => JSON.stringify(r.headers).includes('sekret-token'))).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  }, 30_000);
});

/** The sandbox's webhook spool: the one folder for its policy's destination, under `webhook-spool/`. */
function spoolOf(b: Sandbox): string {
  const spools = outboxFolders(b.cacheDir).filter((f) => path.dirname(f) === path.join(b.cacheDir, 'webhook-spool'));
  expect(spools).toHaveLength(1);
  return spools[0];
}

async function waitUntil(done: () => boolean, ms: number): Promise<void> {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > ms) throw new Error(`not done after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
