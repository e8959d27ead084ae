import * as path from 'path';
import { discoverPolicyFiles, findPolicyProject } from './discover';
import { resolveProjectRoot } from './project-root';

describe('discoverPolicyFiles', () => {
  const root = '/proj';
  const existing = (files: string[]) => (f: string) => files.includes(f);

  it.each<[string, { configs?: string[]; env?: Record<string, string>; files?: string[] }, string[]]>([
    ['--config wins over everything', { configs: ['ci.yaml', '/abs/p.yaml'], env: { POLICY_CONFIG: 'env.yaml' }, files: ['/proj/.claude/policies.yaml'] }, ['/proj/ci.yaml', '/abs/p.yaml']],
    ['--config relative to the project root', { configs: ['./conf/../p.yaml'] }, ['/proj/p.yaml']],
    ['--config given twice is loaded once', { configs: ['a.yaml', './a.yaml'] }, ['/proj/a.yaml']],
    ['$POLICY_CONFIG next, several paths', { env: { POLICY_CONFIG: ['a.yaml', '/b.yaml'].join(path.delimiter) }, files: ['/proj/.claude/policies.yaml'] }, ['/proj/a.yaml', '/b.yaml']],
    ['empty $POLICY_CONFIG is ignored', { env: { POLICY_CONFIG: '' }, files: ['/proj/policies.yaml'] }, ['/proj/policies.yaml']],
    ['.claude/policies.yaml before policies.yaml', { files: ['/proj/.claude/policies.yaml', '/proj/policies.yaml'] }, ['/proj/.claude/policies.yaml']],
    ['policies.yaml last', { files: ['/proj/policies.yaml'] }, ['/proj/policies.yaml']],
    ['nothing found', { files: [] }, []],
  ])('%s', (_name, given, expected) => {
    const found = discoverPolicyFiles({ configs: given.configs ?? [], env: given.env ?? {}, projectRoot: root, exists: existing(given.files ?? []) });
    expect(found).toEqual(expected);
  });
});

describe('findPolicyProject', () => {
  const existing = (files: string[]) => (f: string) => files.includes(f.split(path.sep).join('/'));

  it.each<[string, string, string[], string | null]>([
    ['the folder itself', '/p', ['/p/policies.yaml'], '/p'],
    ['the nearest folder above', '/p/src/deep', ['/p/.claude/policies.yaml', '/policies.yaml'], '/p'],
    ['.claude/policies.yaml or policies.yaml, whichever folder is nearer', '/p/a/b', ['/p/.claude/policies.yaml', '/p/a/policies.yaml'], '/p/a'],
    ['up to the root', '/p/src', ['/policies.yaml'], '/'],
    ['none', '/p/src', [], null],
  ])('%s', (_name, start, files, expected) => {
    expect(findPolicyProject(start, existing(files))).toBe(expected);
  });
});

describe('resolveProjectRoot', () => {
  it.each<[string, Record<string, string>, Record<string, unknown> | null, string]>([
    ['$CLAUDE_PROJECT_DIR first', { CLAUDE_PROJECT_DIR: '/p' }, { cwd: '/p/src' }, '/p'],
    ['$CLAUDE_PROJECT_DIR normalized', { CLAUDE_PROJECT_DIR: '/p/x/../y/' }, null, '/p/y'],
    ['event cwd next', {}, { cwd: '/q/sub' }, '/q/sub'],
    ['relative event cwd against the process cwd', {}, { cwd: 'sub' }, '/work/here/sub'],
    ['non-string cwd is ignored', {}, { cwd: 42 }, '/work/here'],
    ['process cwd last', {}, null, '/work/here'],
  ])('%s', (_name, env, event, expected) => {
    expect(resolveProjectRoot(env, event, '/work/here')).toBe(expected);
  });
});
