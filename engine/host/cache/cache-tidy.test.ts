import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cacheFileName } from './cache-store';
import { claimSweep, SWEEP_INTERVAL_MS, SWEEP_STAMP, tidyAfterBuild } from './cache-tidy';

const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;
let dir: string;
let cacheDir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cache-tidy-'));
  cacheDir = path.join(dir, 'cache');
  fs.mkdirSync(cacheDir);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const stamp = () => path.join(cacheDir, SWEEP_STAMP);
const ageStamp = (ms: number) => fs.utimesSync(stamp(), (Date.now() - ms) / 1000, (Date.now() - ms) / 1000);

/** Writes `<stem>.<kind>` for each kind, `daysOld` days old, as a build of `roots` under `engine`. */
function build(roots: string[], engine: string, daysOld: number, kinds = ['json', 'head.json', 'view.0000000a.json', 'view.0000000b.json']): string {
  const stem = cacheFileName(roots, engine).slice(0, -'.json'.length);
  const when = (Date.now() - daysOld * DAY) / 1000;
  for (const kind of kinds) {
    const file = path.join(cacheDir, `${stem}.${kind}`);
    fs.writeFileSync(file, JSON.stringify({ engine, roots }));
    fs.utimesSync(file, when, when);
  }
  return stem;
}

const filesOf = (stem: string) => fs.readdirSync(cacheDir).filter((f) => f.startsWith(`${stem}.`)).sort();

describe('claimSweep', () => {
  it('claims a folder once an hour, and again when its clock went back', () => {
    expect(SWEEP_INTERVAL_MS).toBe(HOUR);
    expect(claimSweep(cacheDir, Date.now())).toBe(true);
    expect(fs.statSync(stamp()).mode & 0o777).toBe(0o600);
    expect(claimSweep(cacheDir, Date.now())).toBe(false);
    ageStamp(HOUR - 60_000);
    expect(claimSweep(cacheDir, Date.now())).toBe(false);
    ageStamp(HOUR + 60_000);
    expect(claimSweep(cacheDir, Date.now())).toBe(true);
    expect(claimSweep(cacheDir, Date.now())).toBe(false);
    ageStamp(-2 * HOUR);
    expect(claimSweep(cacheDir, Date.now())).toBe(true);
  });

  it('neither follows a link in the stamp\'s place nor waits on a FIFO: the folder stays due, the link and its target untouched', () => {
    const target = path.join(dir, 'target.txt');
    fs.writeFileSync(target, 'keep me\n');
    fs.symlinkSync(target, stamp());
    expect([claimSweep(cacheDir, Date.now()), claimSweep(cacheDir, Date.now())]).toEqual([true, true]);
    expect([fs.readFileSync(target, 'utf8'), fs.lstatSync(stamp()).isSymbolicLink()]).toEqual(['keep me\n', true]);

    fs.rmSync(stamp());
    execFileSync('mkfifo', [stamp()]);
    expect([claimSweep(cacheDir, Date.now()), claimSweep(cacheDir, Date.now())]).toEqual([true, true]);
    expect(fs.lstatSync(stamp()).isFIFO()).toBe(true);
  });

  it('a folder it cannot stamp is due at every build', () => {
    const missing = path.join(dir, 'no-such-folder');
    expect([claimSweep(missing, Date.now()), claimSweep(missing, Date.now())]).toEqual([true, true]);
  });
});

describe('tidyAfterBuild', () => {
  const root = (name: string, exists = true) => {
    const file = path.join(dir, name, '.claude', 'policies.yaml');
    if (exists) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, 'version: 1\n');
    }
    return file;
  };

  it("removes the earlier builds' views, another engine's week-old files, and, when due, abandoned builds", () => {
    const roots = [root('p')];
    const current = build(roots, 'test', 0, ['json', 'head.json', 'view.0000000a.json', 'view.0000000b.json', 'view.0000000c.json']);
    const otherEngine = build(roots, 'old', 8);
    const gone = build([root('deleted', false)], 'test', 31);
    const name = `${current}.json`;
    const old = [`${current}.view.0000000b.json`, `${current}.view.0000000c.json`, ...filesOf(otherEngine), ...filesOf(gone)].sort();

    const first = tidyAfterBuild(cacheDir, name, new Set([`${current}.view.0000000a.json`]), Date.now()).map((f) => path.basename(f)).sort();
    expect([first, old.length]).toEqual([old, 10]);
    expect(filesOf(current)).toEqual([`${current}.head.json`, `${current}.json`, `${current}.view.0000000a.json`]);

    // Within the hour, a build removes its own old views and other engines' files, not abandoned builds.
    const goneAgain = build([root('deleted-too', false)], 'test', 31);
    const oldView = build(roots, 'test', 0, ['view.0000000d.json']);
    expect(oldView).toBe(current);
    expect(tidyAfterBuild(cacheDir, name, new Set([`${current}.view.0000000a.json`]), Date.now()).map((f) => path.basename(f))).toEqual([`${current}.view.0000000d.json`]);
    expect(filesOf(goneAgain)).toHaveLength(4);

    // Without a head written (null), views stay.
    build(roots, 'test', 0, ['view.0000000e.json']);
    ageStamp(2 * HOUR);
    const goneFiles = filesOf(goneAgain);
    expect(tidyAfterBuild(cacheDir, name, null, Date.now()).map((f) => path.basename(f)).sort()).toEqual(goneFiles);
    expect(filesOf(current)).toContain(`${current}.view.0000000e.json`);
  });
});
