import * as path from 'path';
import { choosePolicyFiles, discoverPolicyFiles, findPolicyProject, settlePolicyChoice } from './discover';
import { resolveProjectRoot } from './project-root';

describe('discoverPolicyFiles', () => {
  const root = '/proj';
  const existing = (files: string[]) => (f: string) => files.includes(f);

  it.each<[string, { configs?: string[]; env?: Record<string, string>; files?: string[] }, string[]]>([
    ['--config wins over everything', { configs: ['ci.yaml', '/abs/p.yaml'], env: { POLICY_CONFIG: 'env.yaml' }, files: ['/proj/.claude/policies.yaml'] }, ['/proj/ci.yaml', '/abs/p.yaml']],
    ['--config relative to the project root', { configs: ['./conf/../p.yaml'] }, ['/proj/p.yaml']],
    ['--config given twice is loaded once', { configs: ['a.yaml', './a.yaml'] }, ['/proj/a.yaml']],
    ['$POLICY_CONFIG where the project has no policy file, several paths', { env: { POLICY_CONFIG: ['a.yaml', '/b.yaml'].join(path.delimiter) }, files: [] }, ['/proj/a.yaml', '/b.yaml']],
    ['the team\'s policy over $POLICY_CONFIG, unless the team allows it', { env: { POLICY_CONFIG: ['a.yaml', '/b.yaml'].join(path.delimiter) }, files: ['/proj/.claude/policies.yaml'] }, ['/proj/.claude/policies.yaml']],
    ['empty $POLICY_CONFIG is ignored', { env: { POLICY_CONFIG: '' }, files: ['/proj/policies.yaml'] }, ['/proj/policies.yaml']],
    ['.claude/policies.yaml before policies.yaml', { files: ['/proj/.claude/policies.yaml', '/proj/policies.yaml'] }, ['/proj/.claude/policies.yaml']],
    ['policies.yaml last', { files: ['/proj/policies.yaml'] }, ['/proj/policies.yaml']],
    ['nothing found', { files: [] }, []],
  ])('%s', (_name, given, expected) => {
    const found = discoverPolicyFiles({ configs: given.configs ?? [], env: given.env ?? {}, projectRoot: root, exists: existing(given.files ?? []) });
    expect(found).toEqual(expected);
  });

});

describe('choosePolicyFiles', () => {
  const existing = (files: string[]) => (f: string) => files.includes(f);
  it.each<[string, { configs?: string[]; env?: Record<string, string>; files?: string[] }, { roots: string[]; requested: string[] }]>([
    ['$POLICY_CONFIG waits on the team\'s word', { env: { POLICY_CONFIG: 'ci.yaml' }, files: ['/proj/.claude/policies.yaml'] }, { roots: ['/proj/.claude/policies.yaml'], requested: ['/proj/ci.yaml'] }],
    ['$POLICY_CONFIG naming the team\'s own file asks nothing', { env: { POLICY_CONFIG: '.claude/policies.yaml' }, files: ['/proj/.claude/policies.yaml'] }, { roots: ['/proj/.claude/policies.yaml'], requested: [] }],
    ['no team policy: $POLICY_CONFIG is the policy', { env: { POLICY_CONFIG: 'ci.yaml' }, files: [] }, { roots: ['/proj/ci.yaml'], requested: [] }],
    ['--config: $POLICY_CONFIG is not asked about', { configs: ['p.yaml'], env: { POLICY_CONFIG: 'ci.yaml' }, files: ['/proj/.claude/policies.yaml'] }, { roots: ['/proj/p.yaml'], requested: [] }],
  ])('%s', (_name, given, expected) => {
    expect(choosePolicyFiles({ configs: given.configs ?? [], env: given.env ?? {}, projectRoot: '/proj', exists: existing(given.files ?? []) })).toEqual(expected);
  });
});

describe('settlePolicyChoice', () => {
  const loads: string[][] = [];
  const load = (roots: string[]) => {
    loads.push(roots);
    return { allow: roots[0].endsWith('allowing.yaml'), roots };
  };
  beforeEach(() => loads.splice(0));

  it('nothing waiting: the team\'s policy, loaded once', () => {
    expect(settlePolicyChoice({ roots: ['/p/a.yaml'], requested: [] }, '/p', load, (t) => t.allow)).toEqual({ roots: ['/p/a.yaml'], loaded: { allow: false, roots: ['/p/a.yaml'] }, notice: null });
    expect(loads).toEqual([['/p/a.yaml']]);
  });

  it('allowed: $POLICY_CONFIG\'s files, loaded after the team\'s', () => {
    const settled = settlePolicyChoice({ roots: ['/p/allowing.yaml'], requested: ['/p/ci.yaml'] }, '/p', load, (t) => t.allow);
    expect([settled.roots, settled.notice]).toEqual([['/p/ci.yaml'], null]);
    expect(loads).toEqual([['/p/allowing.yaml'], ['/p/ci.yaml']]);
  });

  it('not allowed: the team\'s policy, and the warning naming both, paths relative to the project', () => {
    const settled = settlePolicyChoice({ roots: ['/p/.claude/policies.yaml'], requested: ['/p/empty.yaml', '/elsewhere/x.yaml'] }, '/p', load, (t) => t.allow);
    expect(settled.roots).toEqual(['/p/.claude/policies.yaml']);
    expect(settled.notice).toEqual({
      code: 'policy-config-ignored', severity: 'warning',
      message: '$POLICY_CONFIG names empty.yaml, /elsewhere/x.yaml, but the team\'s policy .claude/policies.yaml does not let it replace it: ignored',
      hint: 'the team allows it in its top file: settings.policy_config: allow',
    });
    expect(loads).toEqual([['/p/.claude/policies.yaml']]);
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
