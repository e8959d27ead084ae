import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { GENESIS, lineHash, splitLines } from '../../decision-log/chain';
import { verifyChain } from '../../decision-log/verify';
import { appendDecisionRecord, type DecisionRecord } from '../decision-log';
import { lockPathOf } from './append';
import { createDecisionAppender, type AppendOutcome } from './appender';
import { lastLinePathOf } from './last-line';
import { acquireLogLock } from './lock';
import { appendScript } from './test-support';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-appender-')));
  dirs.push(dir);
  return dir;
}

const record = (session: string): DecisionRecord => ({ time: '2026-01-14T09:00:00.000Z', session_id: session, event: 'PreToolUse', tool: 'Bash', agent: null, outcome: 'deny', rules: ['r'], reason: null, paths: [], policy: ['p.yaml'] });
const lines = (file: string) => fs.readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
const verify = (file: string) => verifyChain(splitLines(fs.readFileSync(file)));
const written = (out: AppendOutcome) => (out.written ? out.problem : 'queued');

describe('createDecisionAppender', () => {
  it('appends chained records, each on disk with its prev set before append returns, and leaves the end beside the log', async () => {
    const dir = tmp();
    const appender = createDecisionAppender('logs/decisions.jsonl', dir);
    const file = path.join(dir, 'logs', 'decisions.jsonl');
    const records = ['a', 'b', 'c'].map(record);
    for (const r of records) {
      expect(written(appender.append(r))).toBeNull();
      expect(lines(file).at(-1)).toMatchObject({ session_id: r.session_id, prev: r.prev });
    }
    expect(records[0].prev).toBe(GENESIS);
    expect(verify(file)).toMatchObject({ lines: 3, chainedFrom: 1, breaks: [] });
    const st = fs.statSync(file, { bigint: true });
    const stamp = [st.ino, st.size, st.ctimeNs].map((n) => String(n).padStart(20, '0')).join(' ');
    expect(fs.readFileSync(lastLinePathOf(file), 'latin1')).toBe(`${stamp} ${lineHash(Buffer.from(JSON.stringify(lines(file)[2])))}\n`);
    expect(fs.existsSync(lockPathOf(file))).toBe(false);
    await appender.close();
  });

  it.each([
    ['a command-mode runner appended', (file: string, dir: string) => appendDecisionRecord(path.relative(dir, file), dir, record('runner'))],
    ['a line was appended by other means', (file: string) => fs.appendFileSync(file, `${JSON.stringify(record('other'))}\n`)],
    ['the file beside the log was replaced', (file: string) => {
      fs.writeFileSync(`${lastLinePathOf(file)}.new`, 'garbage\n');
      fs.renameSync(`${lastLinePathOf(file)}.new`, lastLinePathOf(file));
    }],
  ])('after %s in between, the next record is chained to the log as it is', async (_name, change) => {
    const dir = tmp();
    const file = path.join(dir, 'decisions.jsonl');
    const appender = createDecisionAppender('decisions.jsonl', dir);
    appender.append(record('a'));
    change(file, dir);
    const b = record('b');
    expect(written(appender.append(b))).toBeNull();
    const all = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(b.prev).toBe(lineHash(Buffer.from(all[all.length - 2])));
    // And the one after, from its own kept end again.
    appender.append(record('c'));
    expect(lines(file).at(-1)).toMatchObject({ session_id: 'c', prev: lineHash(Buffer.from(fs.readFileSync(file, 'utf8').trimEnd().split('\n').at(-2) as string)) });
    await appender.close();
  });

  it('a log replaced under it (renamed over) is not written through the old descriptor', async () => {
    const dir = tmp();
    const file = path.join(dir, 'decisions.jsonl');
    const appender = createDecisionAppender('decisions.jsonl', dir);
    appender.append(record('a'));
    fs.renameSync(file, path.join(dir, 'moved.jsonl'));
    fs.renameSync(lastLinePathOf(file), path.join(dir, 'moved.jsonl.last'));
    expect(written(appender.append(record('b')))).toBeNull();
    expect(lines(file).map((r) => r.session_id)).toEqual(['b']);
    expect(lines(path.join(dir, 'moved.jsonl')).map((r) => r.session_id)).toEqual(['a']);
    await appender.close();
  });

  it('a second name made for the log while it is kept open: set aside, noted, and the new log kept from then on', async () => {
    const dir = tmp();
    const file = path.join(dir, 'decisions.jsonl');
    const appender = createDecisionAppender('decisions.jsonl', dir);
    appender.append(record('a'));
    fs.linkSync(file, path.join(dir, 'other-name.jsonl'));
    expect(written(appender.append(record('b')))).toMatchObject({ code: 'log-notice' });
    expect(written(appender.append(record('c')))).toBeNull();
    expect(lines(file).map((r) => r.event === 'LogNotice' ? 'notice' : r.session_id)).toEqual(['notice', 'b', 'c']);
    fs.writeFileSync(path.join(dir, 'other-name.jsonl'), '');
    expect(lines(file)).toHaveLength(3);
    expect(verify(file).breaks).toEqual([]);
    await appender.close();
  });

  it('never waits for a lock another process holds: the records are queued, then written in order once it is free', async () => {
    const dir = tmp();
    const file = path.join(dir, 'decisions.jsonl');
    const appender = createDecisionAppender('decisions.jsonl', dir);
    appender.append(record('a'));
    const held = acquireLogLock(lockPathOf(file));
    const started = process.hrtime.bigint();
    const b = appender.append(record('b'));
    const c = appender.append(record('c'));
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(20);
    expect([b.written, c.written]).toEqual([false, false]);
    expect(lines(file)).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(lines(file)).toHaveLength(1);
    held.release();
    expect(await Promise.all([b, c].map((o) => (o.written ? o.problem : o.done)))).toEqual([null, null]);
    expect(lines(file).map((r) => r.session_id)).toEqual(['a', 'b', 'c']);
    // While records wait, a new one goes behind them, not before.
    const again = acquireLogLock(lockPathOf(file));
    const d = appender.append(record('d'));
    again.release();
    const e = appender.append(record('e'));
    expect([d.written, e.written]).toEqual([false, false]);
    await appender.flush();
    expect(lines(file).map((r) => r.session_id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(verify(file).breaks).toEqual([]);
    await appender.close();
  });

  it('a lock that stays with one holder past waitMs: written without it, with log-lock, never dropped', async () => {
    const dir = tmp();
    const file = path.join(dir, 'decisions.jsonl');
    const late: string[] = [];
    const appender = createDecisionAppender('decisions.jsonl', dir, { waitMs: 60, onProblem: (p) => late.push(p.code) });
    const held = acquireLogLock(lockPathOf(file));
    try {
      const out = appender.append(record('a'));
      expect(out.written).toBe(false);
      expect(await (out.written ? null : out.done)).toMatchObject({ code: 'log-lock' });
      expect(late).toEqual(['log-lock']);
      expect(lines(file).map((r) => r.session_id)).toEqual(['a']);
    } finally {
      held.release();
    }
    await appender.close();
  });
});

describe('the appender beside command-mode runners', () => {
  let script: string;
  beforeAll(() => {
    script = appendScript(tmp());
  }, 60_000);

  it('8 processes appending 30 records each while the appender appends 200: every record there once, the chain intact', async () => {
    const dir = tmp();
    const file = path.join(dir, 'decisions.jsonl');
    const appender = createDecisionAppender('decisions.jsonl', dir);
    const children = Array.from({ length: 8 }, (_, k) => new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [script, dir, `p${k}`, '30'], { stdio: ['ignore', 'ignore', 'inherit'] });
      child.on('exit', resolve);
    }));
    const outcomes: AppendOutcome[] = [];
    for (let i = 0; i < 200; i++) {
      outcomes.push(appender.append({ ...record('server'), rules: [`s${i}`] }));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(children)).toEqual(Array(8).fill(0));
    await appender.flush();
    expect(await Promise.all(outcomes.map((o) => (o.written ? o.problem : o.done)))).toEqual(Array(200).fill(null));
    const all = lines(file);
    expect(all).toHaveLength(440);
    expect(all.filter((r) => r.session_id === 'server').map((r) => (r.rules as string[])[0])).toEqual(Array.from({ length: 200 }, (_, i) => `s${i}`));
    expect(verify(file)).toMatchObject({ lines: 440, chainedFrom: 1, breaks: [] });
    await appender.close();
  }, 60_000);
});
