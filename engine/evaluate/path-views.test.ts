import { compiledPolicy, compiledRule, globRegex, pathFilter, toolFilter } from '../../test/support/compiled';
import { MemoryFacts } from '../../test/support/memory-facts';
import { evaluate } from '../evaluate';
import type { HookEvent } from '../types';
import { isCaught, matchesAny, pathView } from './path-views';

const DENY = ['.env', 'src/secret/**', '/etc/**', 'café/**'];
const ALLOW = ['src/**', 'café/**'];

interface Case {
  raw: string;
  cwd?: string;
  root?: string;
  symlinks?: Record<string, string>;
  /** Caught by deny DENY? Caught by allow ALLOW (i.e. outside it)? */
  deny: boolean;
  allow: boolean;
}

async function caughtBy(list: 'deny' | 'allow', globs: string[], c: Case): Promise<boolean> {
  const root = c.root ?? '/proj';
  const rule = compiledRule({ tools: toolFilter('Write'), paths: pathFilter({ [list]: globs }) });
  const event: HookEvent = { hook_event_name: 'PreToolUse', tool_name: 'Write', cwd: c.cwd ?? root, tool_input: { file_path: c.raw } };
  const decision = await evaluate(compiledPolicy([rule]), event, { projectRoot: root, env: {}, facts: new MemoryFacts({}, c.symlinks ?? {}) });
  return decision.outcome === 'deny';
}

describe('paths are judged by what they really touch, for deny and allow lists', () => {
  const NFD = 'cafe\u0301';
  test.each<[string, Case]>([
    ['../ traversal back into the project', { raw: '../proj/.env', deny: true, allow: true }],
    ['../ inside a path', { raw: 'src/../.env', deny: true, allow: true }],
    ['../ climbing out of the project', { raw: '../../etc/hosts', cwd: '/proj/src', deny: true, allow: true }],
    ['../ out into /etc', { raw: '../etc/hosts', deny: true, allow: true }],
    ['absolute inside', { raw: '/proj/src/a.ts', deny: false, allow: false }],
    ['absolute outside', { raw: '/etc/passwd', deny: true, allow: true }],
    ['a sibling folder sharing the prefix', { raw: '/proj-other/src/a.ts', deny: false, allow: true }],
    ['./ and doubled slashes', { raw: './src//secret///k', deny: true, allow: false }],
    ['trailing slash', { raw: 'src/secret/', deny: true, allow: false }],
    ['relative to a sub-folder cwd', { raw: 'k', cwd: '/proj/src/secret', deny: true, allow: false }],
    ['symlink in an allowed folder pointing outside', { raw: 'src/link/passwd', symlinks: { 'src/link': '/etc' }, deny: true, allow: true }],
    ['file that does not exist yet under a symlinked folder', { raw: 'src/link/new.ts', symlinks: { 'src/link': '/etc' }, deny: true, allow: true }],
    ['symlinked parent folder', { raw: 'src/a.ts', symlinks: { src: '/elsewhere' }, deny: false, allow: true }],
    ['symlink to a denied file', { raw: 'src/ok.ts', symlinks: { 'src/ok.ts': '.env' }, deny: true, allow: true }],
    ['chained symlinks', { raw: 'src/a/x', symlinks: { 'src/a': 'src/b', 'src/b': 'src/secret' }, deny: true, allow: false }],
    ['symlink loop (unresolvable): judged as written', { raw: 'src/x', symlinks: { 'src/x': 'src/y', 'src/y': 'src/x' }, deny: false, allow: false }],
    ['case variant of a denied file', { raw: '.ENV', deny: true, allow: true }],
    ['case variant of a denied folder', { raw: 'SRC/Secret/k', deny: true, allow: true }],
    ['case variant of an allowed folder', { raw: 'SRC/App.ts', deny: false, allow: true }],
    ['NFD name vs NFC glob', { raw: `${NFD}/x.md`, deny: true, allow: false }],
    ['NFC name', { raw: 'café/x.md', deny: true, allow: false }],
    ['backslashes on a POSIX root: both readings', { raw: 'src\\secret\\k', deny: true, allow: true }],
    ['backslashes on a Windows root are separators', { raw: 'C:\\proj\\src\\a.ts', root: 'C:/proj', deny: false, allow: false }],
    ['Windows: a relative path', { raw: 'src\\secret\\k', root: 'C:/proj', cwd: 'C:\\proj', deny: true, allow: false }],
    ['Windows: another drive stays absolute', { raw: 'D:\\x\\.env', root: 'C:/proj', deny: false, allow: true }],
    ['Windows: traversal out of the project', { raw: '..\\..\\x', root: 'C:/proj', cwd: 'C:\\proj\\src', deny: false, allow: true }],
  ])('%s', async (_name, c) => {
    expect({ deny: await caughtBy('deny', DENY, c), allow: await caughtBy('allow', ALLOW, c) }).toEqual({ deny: c.deny, allow: c.allow });
  });

  test('except exempts only when every reading is exempt', async () => {
    const rule = compiledRule({ tools: toolFilter('Write'), paths: pathFilter({ deny: ['**'], except: ['src/**'] }) });
    const event: HookEvent = { hook_event_name: 'PreToolUse', tool_name: 'Write', cwd: '/proj', tool_input: { file_path: 'src/link/x' } };
    const run = (symlinks: Record<string, string>) => evaluate(compiledPolicy([rule]), event, { projectRoot: '/proj', env: {}, facts: new MemoryFacts({}, symlinks) });
    expect((await run({})).outcome).toBe('none');
    expect((await run({ 'src/link': '.git' })).outcome).toBe('deny');
  });

  test('the failure detail shows where a symlink leads', async () => {
    const rule = compiledRule({ tools: toolFilter('Write'), paths: pathFilter({ deny: ['.env'] }) });
    const event: HookEvent = { hook_event_name: 'PreToolUse', tool_name: 'Write', cwd: '/proj', tool_input: { file_path: 'a' } };
    const d = await evaluate(compiledPolicy([rule]), event, { projectRoot: '/proj', env: {}, facts: new MemoryFacts({}, { a: 'b' }) });
    expect(d.trace[0].failed).toEqual({ condition: 'paths', detail: 'no touched path matches deny [.env] (touched: a -> b)' });
  });
});

describe('matchesAny', () => {
  test.each<[string, string, boolean]>([
    ['**', 'D:/x', false],
    ['*', 'D:', false],
    ['**', 'src/a', true],
    ['D:/**', 'D:/x/y', true],
    ['/etc/**', 'D:/etc/x', false],
    ['**/*.ts', 'C:/proj2/a.ts', false],
  ])('%s vs %s', (glob, path, expected) => {
    expect(matchesAny([globRegex(glob)], path, false)).toBe(expected);
  });
});

describe('pathView', () => {
  test('keeps only the readings that differ', () => {
    expect(pathView('src/a.ts', '/proj', '/proj', (p) => p)).toEqual({ path: 'src/a.ts', resolved: null, literal: null });
    expect(pathView('a\\b', '/proj', '/proj')).toEqual({ path: 'a/b', resolved: null, literal: 'a\\b' });
  });

  test('isCaught folds case for deny only', () => {
    const view = { path: 'SRC/a', resolved: null, literal: null };
    expect(isCaught(pathFilter({ deny: ['src/**'] }), view)).toBe(true);
    expect(isCaught(pathFilter({ allow: ['src/**'] }), view)).toBe(true);
    expect(isCaught(pathFilter({ allow: ['SRC/**'] }), view)).toBe(false);
  });
});
