import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { sealed, unsealed } from './cache-trust';

type Modules = { verdicts: typeof import('./regex-verdicts'); safety: typeof import('../../evaluate/regex-safety') };

/** Each test gets modules of its own: the verdict memo is per process, as in the runner. */
function fresh(): Modules {
  let modules: Modules | undefined;
  jest.isolateModules(() => {
    modules = { verdicts: require('./regex-verdicts'), safety: require('../../evaluate/regex-safety') };
  });
  return modules as Modules;
}

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookpolicy-verdicts-'));
  fs.chmodSync(dir, 0o700);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const file = () => path.join(dir, 'regex-verdicts.json');
const stored = () => JSON.parse(unsealed(fs.readFileSync(file(), 'utf8')) as string) as { engine: string; verdicts: Array<[string, string | null]> };

it('keeps the verdicts a compile worked out, for this engine, and the next process takes them as known', () => {
  const first = fresh();
  first.verdicts.withRegexVerdicts([dir], () => [first.safety.isSuperLinear('(a+)+$'), first.safety.isSuperLinear('^rm\\s')], 'e1');
  expect(stored()).toEqual({ engine: 'e1', verdicts: [['/(a+)+$', expect.any(String)], ['/^rm\\s', null]] });

  // A verdict in the file is what the next process answers, without working it out again.
  fs.writeFileSync(file(), sealed(JSON.stringify({ engine: 'e1', verdicts: [['/^rm\\s', 'planted']] })));
  const second = fresh();
  expect(second.verdicts.withRegexVerdicts([dir], () => second.safety.superLinearReason('^rm\\s'), 'e1')).toBe('planted');
});

it('a file from another build, one edited outside hookpolicy, or a corrupt one is only a slower compile', () => {
  for (const text of [
    sealed(JSON.stringify({ engine: 'other', verdicts: [['/^rm\\s', 'planted']] })),
    `${sealed(JSON.stringify({ engine: 'e1', verdicts: [] }))}`.replace('"verdicts":[]', '"verdicts":[["/^rm\\\\s","planted"]]'),
    sealed('{not json'),
    sealed(JSON.stringify({ engine: 'e1', verdicts: [[1, 2], ['/x']] })),
  ]) {
    fs.writeFileSync(file(), text);
    const m = fresh();
    expect(m.verdicts.withRegexVerdicts([dir], () => m.safety.superLinearReason('^rm\\s'), 'e1')).toBeNull();
    expect(stored().verdicts).toEqual([['/^rm\\s', null]]);
  }
});

it('writes nothing when the compile added no verdict', () => {
  const m = fresh();
  m.verdicts.withRegexVerdicts([dir], () => m.safety.isSuperLinear('^a'), 'e1');
  const before = fs.statSync(file()).mtimeMs;
  const again = fresh();
  fs.utimesSync(file(), new Date(0), new Date(0));
  again.verdicts.withRegexVerdicts([dir], () => again.safety.isSuperLinear('^a'), 'e1');
  expect(fs.statSync(file()).mtimeMs).toBe(0);
  expect(before).toBeGreaterThan(0);
});
