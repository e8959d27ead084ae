/**
 * The webhook may be down, slow or failing: the hook's answer is never delayed by it (the
 * runner ends before a slow server even answers) and the JSONL line is written every time.
 * Real HTTP servers on 127.0.0.1, ephemeral ports.
 */
import * as fs from 'node:fs';
import { refusedUrl, startSink, type HttpSink } from '../support/http-sink';
import { ensureBuilt, makeSandbox, responseProblems, spawnHook, type Sandbox, type SpawnResult } from '../support/hook-process';

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

  it('slower than timeout_ms: the sender gives up, the log line is still there', async () => {
    sink = await startSink({ delayMs: 5000 });
    box = makeSandbox({ '.claude/policies.yaml': policy(sink.url, 200) });
    const results = await runAll(box);
    expectAnswered(results);
    expectLogged(box);
    expect((await sink.waitFor(RUNS + 1, 4000)).length).toBe(RUNS + 1);
  }, 30_000);

  it('answers 500', async () => {
    sink = await startSink({ status: 500 });
    box = makeSandbox({ '.claude/policies.yaml': policy(sink.url, 1000) });
    expectAnswered(await runAll(box));
    expectLogged(box);
    const received = await sink.waitFor(RUNS + 1, 4000);
    expect(received.map((r) => (JSON.parse(r.body) as { session_id: string }).session_id).sort())
      .toEqual(['warm', ...Array.from({ length: RUNS }, (_, i) => `s-${i}`)].sort());
    expect(received[0].headers['content-type']).toBe('application/json');
  }, 30_000);
});
