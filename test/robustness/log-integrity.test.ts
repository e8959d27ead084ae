/**
 * The decision log's path is in the project, where the confined agent can write: it can
 * remove the log and put a FIFO there (an open for writing waits for a reader: the runner
 * hung 75-90 s before answering), a symlink or a hard link to a file of the user's outside
 * the project (each record would be appended to it), a second name for the log itself (the
 * runner refused it, and every later decision went unrecorded; emptying the log through it
 * still verified as intact), or a symlinked folder. The answer never waits on the log,
 * nothing outside the project is written or followed, what is at the log's path is set aside
 * and a new log begun with a notice (log-notice), a folder leading out costs a log-error
 * warning, never the decision, and `policy log verify` reports every loss at the end.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureBuilt, makeSandbox, responseProblems, spawnHook, type Sandbox } from '../support/hook-process';
import { runCli } from '../support/run-cli';

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

/** Runs the Stop event and checks that the decision came at once, unchanged; returns its stderr. */
async function stopAnswered(): Promise<string> {
  const start = Date.now();
  const r = await spawnHook(STOP, { projectDir: box.dir, cacheDir: box.cacheDir, timeoutMs: 15_000 });
  expect(r.signal).toBeNull();
  expect(Date.now() - start).toBeLessThan(5000);
  expect(responseProblems(r)).toEqual([]);
  expect(r.stdout).toBe(BLOCK);
  return r.stderr;
}

/** Runs the Stop event: the decision came, with a log-error naming `why`. */
async function expectRefused(why: RegExp): Promise<void> {
  const stderr = await stopAnswered();
  expect(stderr).toMatch(/^hookpolicy: \S+decisions\.jsonl: warning log-error: cannot write the decision log: /);
  expect(stderr).toMatch(why);
}

/**
 * Runs the Stop event: the decision came; what was at the log's path was set aside
 * (`why`), and a new log holds the notice and this decision's record.
 */
async function expectSetAside(why: string): Promise<string> {
  const stderr = await stopAnswered();
  expect(stderr).toMatch(/^hookpolicy: \S+decisions\.jsonl: warning log-notice: /);
  expect(stderr).toContain(`what was at the log's path (${why}) was set aside as decisions.jsonl.set-aside-`);
  const log = fs.readFileSync(box.file('logs/decisions.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(log.map((l) => [l.event, l.session_id])).toEqual([['LogNotice', null], ['Stop', 's-1']]);
  const aside = fs.readdirSync(box.file('logs')).filter((n) => n.startsWith('decisions.jsonl.set-aside-'));
  expect(aside).toHaveLength(1);
  return box.file(`logs/${aside[0]}`);
}

function verify(): { code: number | null; report: { breaks: Array<{ line: number; kind: string }> } } {
  const run = runCli(['log', 'verify', '--json'], { cwd: box.dir, env: { HOOKPOLICY_CACHE_DIR: box.cacheDir } });
  return { code: run.code, report: JSON.parse(run.stdout) as { breaks: Array<{ line: number; kind: string }> } };
}

posix('a decision log the agent replaced', () => {
  it('a FIFO with no reader: answered at once, set aside unopened, the decision recorded in a new log', async () => {
    execFileSync('mkfifo', [box.file('logs/decisions.jsonl')]);
    const aside = await expectSetAside('a FIFO');
    expect(fs.lstatSync(aside).isFIFO()).toBe(true);
  }, 20_000);

  it('a FIFO someone holds open for reading: set aside, nothing written into it', async () => {
    execFileSync('mkfifo', [box.file('logs/decisions.jsonl')]);
    // O_RDWR opens a FIFO at once on Linux and macOS: the runner then finds a reader.
    const held = fs.openSync(box.file('logs/decisions.jsonl'), fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
    try {
      await expectSetAside('a FIFO');
      expect(() => fs.readSync(held, Buffer.alloc(64))).toThrow(/EAGAIN/);
    } finally {
      fs.closeSync(held);
    }
  }, 20_000);

  it('a symlink to a file outside the project: not followed, the file unchanged', async () => {
    const target = path.join(outside, 'bashrc');
    fs.writeFileSync(target, 'alias ll="ls -l"\n');
    fs.symlinkSync(target, box.file('logs/decisions.jsonl'));
    const aside = await expectSetAside('a symbolic link');
    expect(fs.readlinkSync(aside)).toBe(target);
    expect(fs.readFileSync(target, 'utf8')).toBe('alias ll="ls -l"\n');
  }, 20_000);

  it('a dangling symlink: no file is created where it points', async () => {
    const target = path.join(outside, 'created-by-the-log');
    fs.symlinkSync(target, box.file('logs/decisions.jsonl'));
    await expectSetAside('a symbolic link');
    expect(fs.existsSync(target)).toBe(false);
  }, 20_000);

  it('a hard link to a file outside the project: the file neither written nor copied into the log', async () => {
    const target = path.join(outside, 'profile');
    fs.writeFileSync(target, 'export PATH=$PATH\n');
    fs.linkSync(target, box.file('logs/decisions.jsonl'));
    await expectSetAside('a file with 2 links: another name was made for it');
    expect(fs.readFileSync(target, 'utf8')).toBe('export PATH=$PATH\n');
  }, 20_000);

  it('a second name made for the log: later decisions are still recorded, and emptying it through that name shows in verify', async () => {
    expect((await spawnHook(STOP, { projectDir: box.dir, cacheDir: box.cacheDir })).stderr).toBe('');
    fs.linkSync(box.file('logs/decisions.jsonl'), box.file('src-p.jsonl'));
    fs.writeFileSync(box.file('src-p.jsonl'), '');
    // Before the next decision: the log is empty, and its appender had left a line there.
    expect(verify()).toMatchObject({ code: 1, report: { breaks: [{ kind: 'cut' }] } });
    await expectSetAside('a file with 2 links: another name was made for it');
    expect(verify()).toMatchObject({ code: 1, report: { breaks: [{ line: 1, kind: 'cut' }] } });
    // And the next decisions go on into the new log, chained.
    expect((await spawnHook(STOP, { projectDir: box.dir, cacheDir: box.cacheDir })).stderr).toBe('');
    expect(fs.readFileSync(box.file('logs/decisions.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(3);
  }, 30_000);

  it('lines removed from the end of the log: verify reports it before and after the next decision', async () => {
    for (let i = 0; i < 3; i++) expect((await spawnHook(STOP, { projectDir: box.dir, cacheDir: box.cacheDir })).stderr).toBe('');
    expect(verify()).toMatchObject({ code: 0, report: { breaks: [] } });
    const text = fs.readFileSync(box.file('logs/decisions.jsonl'), 'utf8');
    fs.writeFileSync(box.file('logs/decisions.jsonl'), text.slice(0, text.indexOf('\n') + 1));
    expect(verify()).toMatchObject({ code: 1, report: { breaks: [{ line: 1, kind: 'cut' }] } });
    const r = await spawnHook(STOP, { projectDir: box.dir, cacheDir: box.cacheDir });
    expect(r.stderr).toMatch(/warning log-notice: the log had lost lines at its end/);
    expect(verify()).toMatchObject({ code: 1, report: { breaks: [{ line: 2, kind: 'cut' }] } });
  }, 30_000);

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
