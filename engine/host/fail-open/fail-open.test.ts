import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { forgetFolderVerdicts } from '../cache/cache-trust';
import { FAIL_OPEN_FILE, FAIL_OPEN_ROTATE_BYTES, failOpenRecord, recordFailOpen, type FailOpenRecord } from './record';
import { readFailOpens } from './read';

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'fail-open-'));
  forgetFolderVerdicts();
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const line = (over: Partial<FailOpenRecord> = {}): FailOpenRecord => ({
  ...failOpenRecord({ project: '/p', session_id: 's', event: 'PreToolUse', tool: 'Bash', code: 'no-policy', message: 'm', on_error: 'open' }, Date.UTC(2026, 0, 15, 10)),
  ...over,
});

describe('recordFailOpen and readFailOpens', () => {
  it('appends one line per call and reads them back, per project and since a time', () => {
    const dirs = [path.join(root, 'cache')];
    expect(recordFailOpen(line(), { env: {}, dirs })).toBeNull();
    expect(recordFailOpen(line({ project: '/other' }), { env: {}, dirs })).toBeNull();
    expect(recordFailOpen(line({ on_error: 'closed', time: '2026-01-16T00:00:00.000Z' }), { env: {}, dirs })).toBeNull();
    expect(fs.statSync(dirs[0]).mode & 0o777).toBe(0o700);
    const all = readFailOpens({ env: {}, dirs });
    expect([all.count, all.failClosed, all.problems]).toEqual([2, 1, []]);
    const mine = readFailOpens({ env: {}, dirs, projectRoot: '/p' });
    expect([mine.count, mine.failClosed, mine.last?.time]).toEqual([1, 1, '2026-01-15T10:00:00.000Z']);
    expect(readFailOpens({ env: {}, dirs, since: Date.UTC(2026, 0, 15, 11) })).toMatchObject({ count: 0, failClosed: 1, last: null });
  });

  it('skips a cache folder other users can write, for the next one', () => {
    const shared = path.join(root, 'shared');
    fs.mkdirSync(shared, { mode: 0o777 });
    fs.chmodSync(shared, 0o777);
    const own = path.join(root, 'own');
    expect(recordFailOpen(line(), { env: {}, dirs: [shared, own] })).toBeNull();
    expect(fs.existsSync(path.join(shared, FAIL_OPEN_FILE))).toBe(false);
    expect(readFailOpens({ env: {}, dirs: [shared, own] }).count).toBe(1);
  });

  it('rotates past its size, keeping one older generation that is still read', () => {
    const dir = path.join(root, 'cache');
    fs.mkdirSync(dir, { mode: 0o700 });
    const old = `${JSON.stringify(line({ time: '2026-01-01T00:00:00.000Z' }))}\n`;
    fs.writeFileSync(path.join(dir, FAIL_OPEN_FILE), old.repeat(Math.ceil(FAIL_OPEN_ROTATE_BYTES / old.length) + 1));
    expect(recordFailOpen(line(), { env: {}, dirs: [dir] })).toBeNull();
    expect(fs.readFileSync(path.join(dir, FAIL_OPEN_FILE), 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
    const read = readFailOpens({ env: {}, dirs: [dir] });
    expect(read.files.map((f) => path.basename(f))).toEqual(['fail-opens.1.jsonl', 'fail-opens.jsonl']);
    expect(read.last?.time).toBe('2026-01-15T10:00:00.000Z');
  });

  it('skips lines that are not counter lines', () => {
    const dir = path.join(root, 'cache');
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.writeFileSync(path.join(dir, FAIL_OPEN_FILE), `{"time":"x"}\nnot json\n\n${JSON.stringify(line())}\n${JSON.stringify({ ...line(), on_error: 'maybe' })}\n`);
    expect(readFailOpens({ env: {}, dirs: [dir] }).count).toBe(1);
  });
});

describe('what is at the counter\'s path', () => {
  it('the reader refuses a symlink where the file is, and says so', () => {
    const dir = path.join(root, 'cache');
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.writeFileSync(path.join(root, 'elsewhere'), `${JSON.stringify(line())}\n`);
    fs.symlinkSync(path.join(root, 'elsewhere'), path.join(dir, FAIL_OPEN_FILE));
    expect(readFailOpens({ env: {}, dirs: [dir] })).toMatchObject({ count: 0, problems: [expect.stringContaining('a symbolic link')] });
  });

  it.each([
    ['a symlink', (at: string) => fs.symlinkSync(path.join(root, 'elsewhere'), at)],
    ['a FIFO', (at: string) => execFileSync('mkfifo', [at])],
    ['a second name of another file', (at: string) => {
      fs.writeFileSync(path.join(root, 'elsewhere'), 'keep\n');
      fs.linkSync(path.join(root, 'elsewhere'), at);
    }],
  ])('%s planted where the file is: set aside, never followed or waited on, and the count goes on', (_name, plant) => {
    const dir = path.join(root, 'cache');
    fs.mkdirSync(dir, { mode: 0o700 });
    plant(path.join(dir, FAIL_OPEN_FILE));
    expect(recordFailOpen(line(), { env: {}, dirs: [dir] })).toBeNull();
    expect(fs.readdirSync(dir).filter((n) => n.startsWith(`${FAIL_OPEN_FILE}.set-aside-`))).toHaveLength(1);
    expect(readFailOpens({ env: {}, dirs: [dir] })).toMatchObject({ count: 1, problems: [] });
    if (fs.existsSync(path.join(root, 'elsewhere'))) expect(fs.readFileSync(path.join(root, 'elsewhere'), 'utf8')).not.toContain('"on_error"');
  });
});
