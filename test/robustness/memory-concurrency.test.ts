/**
 * The memory store under an agent team's load: many runner processes recording at once
 * (each an O_APPEND write to the journal) while others read the store (each ingesting
 * the journal into the index inside its own transaction), and, in the second case, the
 * policy server answering reads all along from the index it keeps open. No record is
 * lost, none is torn, and the index holds every journal line exactly once.
 */
import * as fs from 'node:fs';
import { ensureBuilt, makeSandbox, responseProblems, spawnHook, type Sandbox, type SpawnResult } from '../support/hook-process';
import { startPolicyServer, type PolicyServer } from '../support/policy-server';
import { openMemoryIndex } from '../../engine/host/memory/memory-index';

beforeAll(() => ensureBuilt(), 120_000);

const STORE = '.claude/hookpolicy/memory';
const POLICY = [
  'version: 1',
  // Runners on two cores: the test is about the store, so none may give up at the deadline.
  'settings: { deadline_ms: 60000 }',
  'rules:',
  '  - id: observe',
  '    on: PostToolUse',
  '    tools: Bash',
  '    record:',
  '      kind: command',
  '      text: "{{command}}"',
  '      fields: { command: "{{command}}" }',
  '  - id: recall',
  '    on: UserPromptSubmit',
  '    let:',
  '      seen: { count: command, scope: project }',
  '    context: "seen {{seen}}"',
  '',
].join('\n');

/**
 * Which writer each text came from, sorted (-1: not one writer's command whole, or cut
 * short by the engine's own limit on a rendered value, but torn or mixed).
 */
function writersOf(texts: string[]): number[] {
  return texts.map((text) => {
    const i = Number(/^echo (\d+) /.exec(text)?.[1]);
    const whole = `echo ${i} ${String(i % 10).repeat((i % 7) * 1300)}`;
    const ok = whole.startsWith(text) && text.length >= Math.min(whole.length, 1000);
    return ok ? i : -1;
  }).sort((a, b) => a - b);
}

/** The store's index holds one record of each of `writers` writers, each once, none malformed. */
function expectEachWriterOnce(box: Sandbox, writers: number): void {
  const index = openMemoryIndex({ dir: box.file(STORE), projectRoot: box.dir, retentionDays: 90, maxRecords: 20_000, now: Date.now });
  try {
    const stored = [...index.each()];
    expect(writersOf(stored.map((r) => r.text))).toEqual(Array.from({ length: writers }, (_, i) => i));
    expect(new Set(stored.map((r) => r.id)).size).toBe(writers);
    expect(index.status()).toEqual({ records: writers, malformed: 0 });
  } finally {
    index.close();
  }
}

describe('runners recording and reading the memory store at once', () => {
  const WRITERS = 32;
  const READERS = 8;
  let box: Sandbox;

  beforeAll(() => {
    box = makeSandbox({ '.claude/policies.yaml': POLICY });
  });
  afterAll(() => box.remove());

  it('loses no record, tears none, and the index ingests every line exactly once', async () => {
    const opts = { projectDir: box.dir, cacheDir: box.cacheDir, timeoutMs: 90_000 };
    // Warm the policy cache, so the runners below measure the store, not compilations.
    const warm = await spawnHook(JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 'warm', prompt: 'hi' }), opts);
    expect(responseProblems(warm)).toEqual([]);

    // Records from ~30 bytes to ~9 KB: past PIPE_BUF (4 KB), where a torn write would show.
    const command = (i: number) => `echo ${i} ${String(i % 10).repeat((i % 7) * 1300)}`;
    const runs: Array<Promise<SpawnResult>> = [];
    for (let i = 0; i < WRITERS; i++) {
      runs.push(spawnHook(JSON.stringify({ hook_event_name: 'PostToolUse', session_id: `s-${i % 4}`, tool_name: 'Bash', tool_input: { command: command(i) }, tool_response: {} }), opts));
      if (i % (WRITERS / READERS) === 0) {
        runs.push(spawnHook(JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 'reader', prompt: `read ${i}` }), opts));
      }
    }
    const results = await Promise.all(runs);
    for (const r of results) expect([responseProblems(r), r.stderr]).toEqual([[], '']);
    const seen = results.map((r) => /"seen (\d+)"/.exec(r.stdout)?.[1]).filter((n): n is string => n !== undefined).map(Number);
    expect(seen).toHaveLength(READERS);
    for (const n of seen) expect(n >= 0 && n <= WRITERS).toBe(true);

    const journal = fs.readFileSync(box.file(`${STORE}/journal.jsonl`), 'utf8');
    expect(journal.endsWith('\n')).toBe(true);
    const lines = journal.slice(0, -1).split('\n').map((l) => JSON.parse(l) as { text: string; session: string });
    expect(writersOf(lines.map((l) => l.text))).toEqual(Array.from({ length: WRITERS }, (_, i) => i));

    // One more reader after them all: it finds every record.
    const last = await spawnHook(JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 'reader', prompt: 'done' }), opts);
    expect(JSON.parse(last.stdout).hookSpecificOutput.additionalContext).toBe(`seen ${WRITERS}`);
    expectEachWriterOnce(box, WRITERS);
  }, 180_000);
});

describe('the policy server reading while runners record and read', () => {
  const WRITERS = 24;
  let box: Sandbox;

  beforeAll(() => {
    box = makeSandbox({ '.claude/policies.yaml': POLICY });
  });
  afterAll(() => box.remove());

  async function seenByServer(server: PolicyServer, i: number): Promise<number> {
    const answer = await server.post({ hook_event_name: 'UserPromptSubmit', session_id: 'server-reader', prompt: `read ${i}` });
    const n = /seen (\d+)/.exec(answer.body)?.[1];
    if (answer.status !== 200 || n === undefined) throw new Error(`server answered ${answer.status}: ${answer.body}`);
    return Number(n);
  }

  it('answers from its open index what the runners recorded, each record once, never going back', async () => {
    const opts = { projectDir: box.dir, cacheDir: box.cacheDir, timeoutMs: 90_000 };
    const server = await startPolicyServer({ projectDir: box.dir, cacheDir: box.cacheDir });
    try {
      expect(await seenByServer(server, 0)).toBe(0);
      const command = (i: number) => `echo ${i} ${String(i % 10).repeat((i % 7) * 1300)}`;
      const runs: Array<Promise<SpawnResult>> = [];
      for (let i = 0; i < WRITERS; i++) {
        runs.push(spawnHook(JSON.stringify({ hook_event_name: 'PostToolUse', session_id: `s-${i % 4}`, tool_name: 'Bash', tool_input: { command: command(i) }, tool_response: {} }), opts));
        if (i % 6 === 0) runs.push(spawnHook(JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 'reader', prompt: `read ${i}` }), opts));
      }
      // The server reads all along, one event after another, while the runners work.
      let done = false;
      const all = Promise.all(runs).finally(() => { done = true; });
      const seen: number[] = [];
      for (let i = 1; !done || seen.length < 3; i++) seen.push(await seenByServer(server, i));
      const results = await all;
      for (const r of results) expect([responseProblems(r), r.stderr]).toEqual([[], '']);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      for (const n of seen) expect(n >= 0 && n <= WRITERS).toBe(true);
      expect(await seenByServer(server, -1)).toBe(WRITERS);
    } finally {
      await server.stop();
    }
    expectEachWriterOnce(box, WRITERS);
  }, 180_000);
});
