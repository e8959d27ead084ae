/**
 * Many runners at once: 200 processes appending to one decision log lose no line, never
 * interleave and keep its hash chain intact; runners reading a policy that is being rewritten answer with one
 * version or the other (or a visible policy error while a file is half-written in
 * place), never a mix and never a failure from a half-written cache.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureBuilt, inPool, makeSandbox, responseProblems, spawnHook, type Sandbox, type SpawnResult } from '../support/hook-process';
import { unsealed } from '../../engine/host/cache/cache-trust';
import { runCli } from '../support/run-cli';

beforeAll(() => ensureBuilt(), 120_000);

describe('200 runners, one JSONL log', () => {
  const RUNNERS = 200;
  let box: Sandbox;

  beforeAll(() => {
    box = makeSandbox({
      '.claude/policies.yaml': [
        'version: 1',
        'settings:',
        '  log: { file: logs/decisions.jsonl }',
        // 200 runners on two cores, each parsing its command for the built-in self-protection
        // rule: the test is about whole log lines, so no runner may give up at the deadline.
        '  deadline_ms: 60000',
        'rules:',
        // No pattern on the command: a regex on a 9 KB command runs under a wall-clock watchdog
        // (1 s) that 200 runners on 2 cores can outlast, and this test is about the log.
        '  - id: no-echo',
        '    on: PreToolUse',
        '    tools: Bash',
        '    deny: "refused: {{command}}"',
        '',
      ].join('\n'),
    });
  });
  afterAll(() => box.remove());

  it('every decision arrives as exactly one whole JSON line, and `policy log verify` finds the chain intact', async () => {
    const opts = { projectDir: box.dir, cacheDir: box.cacheDir, timeoutMs: 90_000 };
    // Warm the cache so the 200 measure the log, not 200 compilations.
    const first = await spawnHook(JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: 'README.md' } }), opts);
    expect(first).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });

    // Lines from 100 bytes to ~9 KB (under the 10,000-character message cap): past PIPE_BUF (4 KB), where a torn write would show.
    const command = (i: number) => `echo ${i} ${String(i % 10).repeat((i % 7) * 1500)}`;
    const runs: Array<Promise<SpawnResult>> = [];
    for (let i = 0; i < RUNNERS; i++) {
      const event = { hook_event_name: 'PreToolUse', session_id: `s-${i}`, tool_name: 'Bash', tool_input: { command: command(i) } };
      runs.push(spawnHook(JSON.stringify(event), opts));
    }
    const results = await Promise.all(runs);

    results.forEach((r, i) => {
      expect(responseProblems(r)).toEqual([]);
      expect([i, JSON.parse(r.stdout).hookSpecificOutput?.permissionDecisionReason ?? r.stdout]).toEqual([i, `refused: ${command(i)}`]);
    });
    const text = fs.readFileSync(box.file('logs/decisions.jsonl'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    // One line per decision: none lost, none doubled, no empty line (a runner that took
    // another's half-written line for one cut short once started its own with a new line).
    const lines = text.slice(0, -1).split('\n');
    const sessions = lines.map((line) => (JSON.parse(line) as { session_id: string }).session_id);
    expect(sessions.slice().sort()).toEqual(Array.from({ length: RUNNERS }, (_, i) => `s-${i}`).sort());
    const bySession = new Map(lines.map((line) => JSON.parse(line) as { session_id: string }).map((r) => [r.session_id, r]));
    for (let i = 0; i < RUNNERS; i++) {
      expect(bySession.get(`s-${i}`)).toMatchObject({ outcome: 'deny', rules: ['no-echo'], reason: `refused: ${command(i)}` });
    }
    // The hash chain held: the 200 appended one at a time under the log's lock (none gave up
    // waiting while the queue moved), none chained to a line another had taken.
    expect(results.filter((r) => r.stderr.includes('log-lock')).map((r) => r.stderr)).toEqual([]);
    const verify = runCli(['log', 'verify', '--json'], { cwd: box.dir, env: { HOOKPOLICY_CACHE_DIR: box.cacheDir } });
    expect([verify.code, verify.stderr]).toEqual([0, '']);
    expect(JSON.parse(verify.stdout)).toMatchObject({ lines: RUNNERS, chainedFrom: 1, breaks: [] });
  }, 120_000);
});

describe('a policy rewritten while runners read it', () => {
  // Padding makes the file ~48 KB so that an in-place write is visibly partial for a while.
  const padding = Array.from({ length: 600 }, (_, i) => `# padding line ${i} ${'.'.repeat(60)}`).join('\n');
  const version = (message: string) => [
    'version: 1',
    'rules:',
    '  - id: stop-writes',
    '    on: PreToolUse',
    '    tools: Write',
    `    deny: "${message}"`,
    padding,
    '',
  ].join('\n');
  const A = version('A');
  const B = version('B');
  const answer = (m: string) => `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"${m}"}}\n`;

  type Kind = 'A' | 'B' | 'policy-error' | 'other';
  const RUNS = 30;

  function classify(r: SpawnResult, policyFile: string): Kind {
    if (responseProblems(r).length > 0) return 'other';
    if (r.stdout === answer('A') && r.stderr === '') return 'A';
    if (r.stdout === answer('B') && r.stderr === '') return 'B';
    if (r.stdout === '') return 'other';
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    const visible = new RegExp(`^hookpolicy: ${escape(policyFile)}(:\\d+:\\d+)?: error [a-z-]+: .*\\(failing open: the event was not checked\\)$`, 's');
    const ok = Object.keys(out).length === 1 && typeof out.systemMessage === 'string' && visible.test(out.systemMessage)
      && r.stderr === `${out.systemMessage}\n`;
    return ok ? 'policy-error' : 'other';
  }

  /** Rewrites the policy between A and B until `stop()`; returns how many writes were made. */
  async function rewrite(file: string, mode: 'rename' | 'in-place', stopped: () => boolean): Promise<number> {
    let writes = 0;
    while (!stopped()) {
      const text = writes % 2 === 0 ? B : A;
      if (mode === 'rename') {
        const tmp = `${file}.${writes}.tmp`;
        fs.writeFileSync(tmp, text);
        fs.renameSync(tmp, file);
      } else {
        // Truncate, then write in 8 KB pieces with pauses, as a slow editor save would.
        const fd = fs.openSync(file, 'w');
        try {
          for (let at = 0; at < text.length; at += 8192) {
            fs.writeSync(fd, text.slice(at, at + 8192));
            await pause(1);
          }
        } finally {
          fs.closeSync(fd);
        }
      }
      writes++;
      await pause(3);
    }
    return writes;
  }

  it.each(['rename', 'in-place'] as const)('written by %s: every answer is A, B or a visible policy error', async (mode) => {
    const box = makeSandbox({ '.claude/policies.yaml': A });
    try {
      const file = box.file('.claude/policies.yaml');
      const event = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: `${box.dir}/x.ts` } });
      let done = false;
      const writer = rewrite(file, mode, () => done);
      const results = await inPool(Array.from({ length: RUNS }), 6, () => spawnHook(event, { projectDir: box.dir, cacheDir: box.cacheDir }));
      done = true;
      const writes = await writer;

      const kinds = results.map((r) => classify(r, file));
      const counts = { A: 0, B: 0, 'policy-error': 0, other: 0 };
      for (const k of kinds) counts[k]++;
      const codes = results.filter((_, i) => kinds[i] === 'policy-error').map((r) => /error ([a-z-]+):/.exec(r.stdout)?.[1]);
      process.stderr.write(`policy rewrite by ${mode}: ${RUNS} runs during ${writes} writes -> ${JSON.stringify(counts)} ${codes.join(' ')}\n`);

      const others = results.filter((_, i) => kinds[i] === 'other').map((r) => ({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }));
      expect(others).toEqual([]);
      expect(writes).toBeGreaterThan(5);
      // An atomic rename never exposes a half-written file.
      if (mode === 'rename') expect(counts['policy-error']).toBe(0);
      // Whatever the cache holds now is whole, and the runner agrees with the file on disk.
      for (const name of fs.readdirSync(box.cacheDir).filter((n) => n.endsWith('.json'))) {
        expect(() => JSON.parse(unsealed(fs.readFileSync(path.join(box.cacheDir, name), 'utf8')) as string)).not.toThrow();
      }
      const settled = await spawnHook(event, { projectDir: box.dir, cacheDir: box.cacheDir });
      const final = fs.readFileSync(file, 'utf8') === A ? 'A' : 'B';
      expect(settled).toMatchObject({ stdout: answer(final), stderr: '' });
    } finally {
      box.remove();
    }
  }, 90_000);
});

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
