import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { inFreshProcess } from '../../../test/support/fresh-process';
import { sealed, unsealed } from './cache-trust';

type Modules = {
  memo: typeof import('./compile-memo');
  safety: typeof import('../../evaluate/regex-safety');
  globs: typeof import('../../compile/glob-regex');
  prefilters: typeof import('../../compile/regex-prefilter');
};

/** Runs `run` as a new process would: what the memo remembers is per process. */
const inProcess = <T>(run: (m: Modules, picomatchLoads: () => number) => T): T => inFreshProcess(() => ({
  memo: require('./compile-memo'), safety: require('../../evaluate/regex-safety'), globs: require('../../compile/glob-regex'), prefilters: require('../../compile/regex-prefilter'),
}) as Modules, run);

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-memo-'));
  fs.chmodSync(dir, 0o700);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

type Stored = { engine: string; verdicts: Array<[string, string | null]>; prefilters: Array<[string, unknown]>; globs: Array<[string, unknown]> };
const file = () => path.join(dir, 'compile-memo.json');
const stored = () => JSON.parse(unsealed(fs.readFileSync(file(), 'utf8')) as string) as Stored;
const plant = (value: unknown) => fs.writeFileSync(file(), sealed(JSON.stringify(value)));

it('keeps the verdicts a compile worked out, for this engine, and the next process takes them as known', () => {
  inProcess((m) => m.memo.withCompileMemo([dir], () => [m.safety.isSuperLinear('(a+)+$'), m.safety.isSuperLinear('^rm\\s')], 'e1'));
  expect(stored()).toEqual({ engine: 'e1', verdicts: [['/(a+)+$', expect.any(String)], ['/^rm\\s', null]], prefilters: [], globs: [] });

  // A verdict in the file is what the next process answers, without working it out again.
  plant({ engine: 'e1', verdicts: [['/^rm\\s', 'planted']], globs: [] });
  expect(inProcess((m) => m.memo.withCompileMemo([dir], () => m.safety.superLinearReason('^rm\\s'), 'e1'))).toBe('planted');
});

it('keeps the globs\' regexes a compile made, and the next process takes them without loading picomatch', () => {
  const made = inProcess((m, loads) => {
    const regexes = m.memo.withCompileMemo([dir], () => ['src/**', '/etc/**'].map((g) => m.globs.globRegex(g)), 'e1');
    expect(loads()).toBe(1);
    return regexes;
  });
  expect(stored().globs).toEqual([['src/**', made[0]], ['/etc/**', made[1]]]);
  inProcess((m, loads) => {
    expect(m.memo.withCompileMemo([dir], () => ['src/**', '/etc/**'].map((g) => m.globs.globRegex(g)), 'e1')).toEqual(made);
    expect(loads()).toBe(0);
  });
});

it('keeps the prefilters a compile worked out, and the next process answers with them', () => {
  const made = inProcess((m) => m.memo.withCompileMemo([dir], () => m.prefilters.prefilterOf('\\bgit\\s+push\\b.*--force', ''), 'e1'));
  expect(stored().prefilters).toEqual([['/\\bgit\\s+push\\b.*--force', made]]);
  plant({ engine: 'e1', verdicts: [], prefilters: [['/\\bgit\\s+push\\b.*--force', { literal: 'planted' }]], globs: [] });
  expect(inProcess((m) => m.memo.withCompileMemo([dir], () => m.prefilters.prefilterOf('\\bgit\\s+push\\b.*--force', ''), 'e1'))).toEqual({ literal: 'planted' });
});

it('a file from another build, one edited outside hookpolicy, a corrupt one or malformed entries are only a slower compile', () => {
  for (const text of [
    sealed(JSON.stringify({ engine: 'other', verdicts: [['/^rm\\s', 'planted']], globs: [['src/**', { source: '^planted$', flags: 's' }]] })),
    `${sealed(JSON.stringify({ engine: 'e1', verdicts: [], globs: [] }))}`.replace('"verdicts":[]', '"verdicts":[["/^rm\\\\s","planted"]]'),
    sealed('{not json'),
    sealed(JSON.stringify({
      engine: 'e1', verdicts: [[1, 2], ['/x']], prefilters: [['/^rm\\s', { literal: 1 }], ['/^rm\\s', { allOf: 'x' }], ['/^rm\\s', { other: 'x' }]],
      globs: [['src/**', { source: 1 }], ['src/**', { source: 'x', flags: 's', globLiterals: [1] }], [2, null]],
    })),
  ]) {
    fs.writeFileSync(file(), text);
    const answers = inProcess((m) => m.memo.withCompileMemo([dir], () => [m.safety.superLinearReason('^rm\\s'), m.globs.globRegex('src/**')?.source, m.prefilters.prefilterOf('^rm\\s', '').literal], 'e1'));
    expect(answers[0]).toBeNull();
    expect(answers[2]).toBe('rm');
    expect(answers[1]).toMatch(/^\^/);
    expect(answers[1]).not.toBe('x');
    expect(stored().verdicts).toEqual([['/^rm\\s', null]]);
    expect(stored().globs.map(([g]) => g)).toEqual(['src/**']);
  }
});

it('writes nothing when the compile added nothing', () => {
  inProcess((m) => m.memo.withCompileMemo([dir], () => [m.safety.isSuperLinear('^a'), m.globs.globRegex('a/**')], 'e1'));
  fs.utimesSync(file(), new Date(0), new Date(0));
  inProcess((m) => m.memo.withCompileMemo([dir], () => [m.safety.isSuperLinear('^a'), m.globs.globRegex('a/**')], 'e1'));
  expect(fs.statSync(file()).mtimeMs).toBe(0);
});
