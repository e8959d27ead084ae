/**
 * The decision log's path is in the project, where the confined agent can write: it can
 * remove the log and put a FIFO there (an open for writing waits for a reader: the runner
 * hung 75-90 s before answering), a symlink or a hard link to a file of the user's outside
 * the project (each record would be appended to it), or a symlinked folder. The answer
 * never waits on the log, nothing outside the project is written, and a refused log costs
 * a log-error warning, never the decision.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureBuilt, makeSandbox, responseProblems, spawnHook, type Sandbox } from '../support/hook-process';

beforeAll(() => ensureBuilt(), 120_000);

const posix = process.platform === 'win32' ? describe.skip : describe;
const POLICY = 'version: 1\nsettings: { log: { file: logs/decisions.jsonl } }\nrules:\n  - { id: r, on: Stop, block: "ruled" }\n';
const STOP = '{"hook_event_name":"Stop","session_id":"s-1"}';
const BLOCK = '{"decision":"block","reason":"ruled"}\n';

let box: Sandbox;
let outside: string;
beforeEach(() => {
  box = makeSandbox({ '.claude/policies.yaml': POLICY });
  fs.mkdirSync(box.file('logs'));
  outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-outside-')));
});
afterEach(() => {
  box.remove();
  fs.rmSync(outside, { recursive: true, force: true });
});

/** Runs the Stop event and checks that the decision came, unchanged, with a log-error naming `why`. */
async function expectRefused(why: RegExp): Promise<void> {
  const start = Date.now();
  const r = await spawnHook(STOP, { projectDir: box.dir, cacheDir: box.cacheDir, timeoutMs: 15_000 });
  expect(r.signal).toBeNull();
  expect(Date.now() - start).toBeLessThan(5000);
  expect(responseProblems(r)).toEqual([]);
  expect(r.stdout).toBe(BLOCK);
  expect(r.stderr).toMatch(/^hookpolicy: \S+decisions\.jsonl: warning log-error: cannot write the decision log: /);
  expect(r.stderr).toMatch(why);
}

posix('a decision log the agent replaced', () => {
  it('a FIFO with no reader: answered at once, not after the open gives up', async () => {
    execFileSync('mkfifo', [box.file('logs/decisions.jsonl')]);
    await expectRefused(/not a regular file/);
  }, 20_000);

  it('a FIFO someone holds open for reading: refused, nothing written into it', async () => {
    execFileSync('mkfifo', [box.file('logs/decisions.jsonl')]);
    // O_RDWR opens a FIFO at once on Linux and macOS: the runner then finds a reader.
    const held = fs.openSync(box.file('logs/decisions.jsonl'), fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
    try {
      await expectRefused(/not a regular file \(a FIFO\)/);
      expect(() => fs.readSync(held, Buffer.alloc(64))).toThrow(/EAGAIN/);
    } finally {
      fs.closeSync(held);
    }
  }, 20_000);

  it('a symlink to a file outside the project: not followed, the file unchanged', async () => {
    const target = path.join(outside, 'bashrc');
    fs.writeFileSync(target, 'alias ll="ls -l"\n');
    fs.symlinkSync(target, box.file('logs/decisions.jsonl'));
    await expectRefused(/is a symbolic link/);
    expect(fs.readFileSync(target, 'utf8')).toBe('alias ll="ls -l"\n');
  }, 20_000);

  it('a dangling symlink: no file is created where it points', async () => {
    const target = path.join(outside, 'created-by-the-log');
    fs.symlinkSync(target, box.file('logs/decisions.jsonl'));
    await expectRefused(/is a symbolic link/);
    expect(fs.existsSync(target)).toBe(false);
  }, 20_000);

  it('a hard link to a file outside the project: refused, the file unchanged', async () => {
    const target = path.join(outside, 'profile');
    fs.writeFileSync(target, 'export PATH=$PATH\n');
    fs.linkSync(target, box.file('logs/decisions.jsonl'));
    await expectRefused(/has 2 hard links/);
    expect(fs.readFileSync(target, 'utf8')).toBe('export PATH=$PATH\n');
  }, 20_000);

  it('the log folder a symlink out of the project: nothing written there', async () => {
    fs.rmdirSync(box.file('logs'));
    fs.symlinkSync(outside, box.file('logs'));
    await expectRefused(/leads out of the project/);
    expect(fs.readdirSync(outside)).toEqual([]);
  }, 20_000);

  it('a missing log folder under a symlink out of the project is not made there', async () => {
    fs.rmdirSync(box.file('logs'));
    fs.symlinkSync(outside, box.file('logs'));
    fs.writeFileSync(box.file('.claude/policies.yaml'), POLICY.replace('logs/decisions.jsonl', 'logs/deep/decisions.jsonl'));
    await expectRefused(/leads out of the project/);
    expect(fs.readdirSync(outside)).toEqual([]);
  }, 20_000);

  it('a plain log is still written, one line per decision', async () => {
    const r = await spawnHook(STOP, { projectDir: box.dir, cacheDir: box.cacheDir });
    expect(r).toMatchObject({ stdout: BLOCK, stderr: '', exitCode: 0 });
    expect(fs.readFileSync(box.file('logs/decisions.jsonl'), 'utf8')).toContain('"session_id":"s-1"');
  });
});
