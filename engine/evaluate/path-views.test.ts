import { compiledPolicy, compiledRule, globRegex, pathFilter, toolFilter } from '../../test/support/compiled';
import { MemoryFacts } from '../../test/support/memory-facts';
import { evaluate } from '../evaluate';
import type { HookEvent } from '../types';
import { isCaught, isSurelyCaught, matchesAny, pathView, windowsName } from './path-views';

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

describe('the file that would be opened: case-insensitive volumes, Windows names', () => {
  const SECRETS = ['.env', '.ssh/**', 'id_rsa*', '*.key', 'credentials*.json', '.git/**'];
  const TESTS = ['**/tests/**'];

  async function judged(list: 'deny' | 'allow' | 'approve', globs: string[], raw: string, options: { windows?: boolean; root?: string; symlinks?: Record<string, string> } = {}) {
    const root = options.root ?? '/proj';
    const facts = new MemoryFacts({}, options.symlinks ?? {});
    facts.windows = options.windows === true;
    const rule = list === 'approve'
      ? compiledRule({ tools: toolFilter('Write'), paths: pathFilter({ deny: globs }), outcome: 'allow', message: 'ok' })
      : compiledRule({ tools: toolFilter('Write'), paths: pathFilter({ [list]: globs }) });
    const event: HookEvent = { hook_event_name: 'PreToolUse', tool_name: 'Write', cwd: root, tool_input: { file_path: raw } };
    return (await evaluate(compiledPolicy([rule]), event, { projectRoot: root, env: {}, facts })).outcome;
  }

  test.each<[string, string, { windows?: boolean; root?: string }]>([
    // Case folding beyond what a regex's i flag does (APFS folds case, NTFS upper-cases).
    ['long s (U+017F) is s', '.\u017Fsh/authorized_keys', {}],
    ['dotless i (U+0131) upper-cases to I', 'credent\u0131als.json', {}],
    ['Kelvin sign (U+212A) is k', 'server.\u212Aey', {}],
    ['a zero-width space HFS+ ignores', '.e\u200Bnv', {}],
    ['a fullwidth name (compatibility form)', '.\uFF45\uFF4E\uFF56', {}],
    ['upper case', 'ID_RSA', {}],
    // Windows opens the same file under these names.
    ['a trailing dot', '.env.', {}],
    ['trailing spaces', '.env  ', {}],
    ['the default data stream', '.env::$DATA', {}],
    ['a named stream', '.env:hidden', {}],
    ['a stream on a folder', '.git::$INDEX_ALLOCATION/config', {}],
    ['a trailing dot on a folder', '.git./config', {}],
    ['a Windows root: backslashes and a stream', 'C:\\proj\\.env::$DATA', { root: 'C:/proj' }],
    // 8.3 short names: which file they name cannot be known, so any deny list catches them.
    ['a short name for .git', 'GIT~1/config', { windows: true }],
    ['a short name for credentials.json', 'CREDEN~1.JSO', { windows: true }],
    ['a short name under a Windows root', 'C:\\proj\\CREDEN~1.JSO', { root: 'C:/proj' }],
  ])('deny catches %s', async (_name, raw, options) => {
    expect(await judged('deny', SECRETS, raw, options)).toBe('deny');
  });

  test.each<[string, string, { windows?: boolean }, string]>([
    ['a short name outside Windows is a name like any other', 'GIT~1/config', {}, 'none'],
    ['a name with ~ that is no short name', 'notes~', { windows: true }, 'none'],
    ['an ordinary file', 'src/a.ts', { windows: true }, 'none'],
  ])('deny leaves %s alone', async (_name, raw, options, outcome) => {
    expect(await judged('deny', SECRETS, raw, options)).toBe(outcome);
  });

  test.each<[string, string, { windows?: boolean }, string]>([
    ['a test file written with a trailing dot is still inside', 'tests/a.ts.', {}, 'none'],
    ['a stream of a test file is inside', 'tests/a.ts:x', {}, 'none'],
    ['a short name may be any folder: outside', 'TESTS~1/a.ts', { windows: true }, 'deny'],
    ['a folder that only folds to tests is outside', 'TESTS/a.ts', {}, 'deny'],
  ])('an allow list: %s', async (_name, raw, options, outcome) => {
    expect(await judged('allow', TESTS, raw, options)).toBe(outcome);
  });

  test.each<[string, string, { windows?: boolean; symlinks?: Record<string, string> }, string]>([
    ['exactly inside', 'docs/a.md', {}, 'allow'],
    ['the same file through its default stream', 'docs/a.md::$DATA', {}, 'allow'],
    ['another case: on a case-sensitive volume another folder', 'Docs/a.md', {}, 'none'],
    ['a short name: any folder', 'DOCS~1/a.md', { windows: true }, 'none'],
    ['a symlink out of the folder', 'docs/link/x', { symlinks: { 'docs/link': '/etc' } }, 'none'],
    ['a dangling link out of the folder', 'docs/new.md', { symlinks: { 'docs/new.md': 'src/new.ts' } }, 'none'],
  ])('an approving rule: %s', async (_name, raw, options, outcome) => {
    expect(await judged('approve', ['docs/**'], raw, options)).toBe(outcome);
  });

  test('on a POSIX project, C:/x is a folder named C: inside it, not a drive', async () => {
    expect(await judged('deny', ['**'], 'C:/x')).toBe('deny');
    expect(await judged('deny', ['**'], 'c:\\x')).toBe('deny');
    expect(await judged('deny', ['**'], 'D:\\x', { root: 'C:/proj' })).toBe('none');
  });

  test('windowsName drops streams and trailing dots and spaces, keeps a drive', () => {
    expect(windowsName('src/.env. ')).toBe('src/.env');
    expect(windowsName('.git::$INDEX_ALLOCATION/config')).toBe('.git/config');
    expect(windowsName('D:/x/a.txt:s')).toBe('D:/x/a.txt');
    expect(windowsName('...')).toBe('...');
  });

  test('isSurelyCaught needs every reading; isCaught any', () => {
    const view = { path: 'docs/a', resolved: '/etc/a', literal: null };
    expect(isSurelyCaught(pathFilter({ deny: ['docs/**'] }), view)).toBe(false);
    expect(isCaught(pathFilter({ deny: ['docs/**'] }), view)).toBe(true);
    expect(isSurelyCaught(pathFilter({ deny: ['docs/**'] }), { path: 'docs/a', resolved: null, literal: null })).toBe(true);
    expect(isSurelyCaught(pathFilter({ deny: ['**'], except: ['docs/**'] }), { path: 'DOCS/a', resolved: null, literal: null })).toBe(false);
  });

  test('a dangling link is judged by the file it would create', async () => {
    expect(await judged('deny', SECRETS, 'notes.txt', { symlinks: { 'notes.txt': '.env' } })).toBe('deny');
    expect(await judged('allow', TESTS, 'tests/dl.test.ts', { symlinks: { 'tests/dl.test.ts': 'src/new.ts' } })).toBe('deny');
  });

  test('a link to a link: every place on the way is a reading', () => {
    const view = pathView('notes.txt', '/proj', '/proj', () => ({ real: 'real/secret', via: ['.env', 'real/secret'] }));
    expect(view).toEqual({ path: 'notes.txt', resolved: 'real/secret', literal: null, via: ['.env'] });
    expect(isCaught(pathFilter({ deny: ['.env'] }), view)).toBe(true);
  });
});
