import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ABANDONED_BUILD_GRACE_MS, LEFTOVER_TEMP_GRACE_MS, removeAbandonedBuilds } from './abandoned-builds';
import { cacheFileName } from './cache-store';

const DAY = 24 * 3600 * 1000;
let dir: string;
let cacheDir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'abandoned-'));
  cacheDir = path.join(dir, 'cache');
  fs.mkdirSync(cacheDir);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A policy file under the temp folder, created unless `exists` is false. */
function rootFile(name: string, exists = true): string {
  const file = path.join(dir, name, '.claude', 'policies.yaml');
  if (exists) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'version: 1\n');
  }
  return file;
}

/** Writes a build's files as the cache does (artefact, head, views), all `daysOld` days old. */
function build(roots: string[], daysOld: number, kinds = ['json', 'head.json', 'view.0000000a.json', 'view.0000000b.json']): string {
  const stem = cacheFileName(roots, 'test').slice(0, -'.json'.length);
  for (const kind of kinds) writeAged(`${stem}.${kind}`, JSON.stringify({ engine: 'test', roots }), daysOld);
  return stem;
}

function writeAged(name: string, text: string, daysOld: number): void {
  const file = path.join(cacheDir, name);
  fs.writeFileSync(file, text);
  const when = (Date.now() - daysOld * DAY) / 1000;
  fs.utimesSync(file, when, when);
}

const filesOf = (stem: string) => fs.readdirSync(cacheDir).filter((f) => f.startsWith(`${stem}.`)).sort();
const sweep = (keep: string) => removeAbandonedBuilds(cacheDir, `${keep}.json`, Date.now()).map((f) => path.basename(f)).sort();

it('keeps a build for 30 days after its last write', () => {
  expect([ABANDONED_BUILD_GRACE_MS, LEFTOVER_TEMP_GRACE_MS]).toEqual([30 * DAY, DAY]);
});

it('removes every file of an old build whose root is gone, and nothing of the others', () => {
  const current = build([rootFile('current')], 0);
  const gone = build([rootFile('deleted', false)], 31);
  const goneRecently = build([rootFile('deleted-lately', false)], 29);
  const oldButLive = build([rootFile('unchanged')], 90);
  const goneFiles = filesOf(gone);

  expect(sweep(current)).toEqual(goneFiles);
  expect(filesOf(gone)).toEqual([]);
  expect(filesOf(goneRecently)).toHaveLength(4);
  expect(filesOf(oldButLive)).toHaveLength(4);
  expect(filesOf(current)).toHaveLength(4);
});

it('removes a build when any one of its roots is gone', () => {
  const user = rootFile('home');
  const current = build([user, rootFile('a')], 0);
  const gone = build([user, rootFile('worktree', false)], 40);
  expect(sweep(current)).toHaveLength(4);
  expect(filesOf(gone)).toEqual([]);
});

it('never removes the build just stored, even with a root missing', () => {
  const current = build([rootFile('moved', false)], 40);
  expect(sweep(current)).toEqual([]);
  expect(filesOf(current)).toHaveLength(4);
});

it('keeps a build while any of its files is recent (a head rewritten by a live runner)', () => {
  const current = build([rootFile('current')], 0);
  const gone = build([rootFile('deleted', false)], 40, ['json', 'view.0000000a.json']);
  writeAged(`${gone}.head.json`, JSON.stringify({ roots: [rootFile('deleted', false)] }), 1);
  const partlyOld = build([rootFile('deleted-too', false)], 40, ['head.json', 'json']);
  writeAged(`${partlyOld}.view.0000000c.json`, '{}', 2);
  expect(sweep(current)).toEqual([]);
});

it('reads the roots from a failed build when there is no artefact', () => {
  const current = build([rootFile('current')], 0);
  const failed = build([rootFile('deleted', false)], 35, ['failed.json']);
  const failedLive = build([rootFile('broken')], 35, ['failed.json']);
  expect(sweep(current)).toEqual([`${failed}.failed.json`]);
  expect(filesOf(failedLive)).toEqual([`${failedLive}.failed.json`]);
});

it('removes old views without a head or artefact, and an old build whose record is corrupt', () => {
  const current = build([rootFile('current')], 0);
  const orphans = build([rootFile('live')], 31, ['view.0000000a.json']);
  const corrupt = build([rootFile('live-too')], 31, ['json']);
  writeAged(`${corrupt}.head.json`, '{ half a fi', 31);
  expect(sweep(current)).toEqual([`${corrupt}.head.json`, `${corrupt}.json`, `${orphans}.view.0000000a.json`].sort());
});

it('removes the temporary files of unfinished writes once they are a day old', () => {
  const current = build([rootFile('current')], 0);
  const stale = `${current}.head.json.4242.k3j9x.tmp`;
  const fresh = `${current}.json.4243.a1b2.tmp`;
  writeAged(stale, '{', 2);
  writeAged(fresh, '{', 0);
  expect(sweep(current)).toEqual([stale]);
  expect(fs.existsSync(path.join(cacheDir, fresh))).toBe(true);
});

it("leaves files that are not the cache's own", () => {
  const current = build([rootFile('current')], 0);
  for (const name of ['v8-hook-0a1b2c3d.cache', 'notes.txt', 'abc.json']) writeAged(name, 'x', 400);
  expect(sweep(current)).toEqual([]);
  expect(fs.readdirSync(cacheDir)).toEqual(expect.arrayContaining(['v8-hook-0a1b2c3d.cache', 'notes.txt', 'abc.json']));
});

it('does nothing in a folder it cannot list', () => {
  expect(removeAbandonedBuilds(path.join(dir, 'missing'), 'x.json', Date.now())).toEqual([]);
});
