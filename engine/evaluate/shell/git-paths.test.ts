import { pathspecTarget } from './git-paths';
import { shellWrites } from './writes';

const root = '/proj';

/** Written paths (normalized) and why the command is not checkable (null: it is). */
function run(command: string, cwd = root) {
  const result = shellWrites(command, { cwd, projectRoot: root, home: '/home/u', isFolder: () => false });
  return { paths: result.paths.map((p) => p.path), unchecked: result.unchecked };
}

describe('git subcommands that write the paths they name', () => {
  test.each<[string, string[], RegExp | null]>([
    ['git checkout -- .claude/policies.yaml', ['.claude/policies.yaml'], /git checkout can run the repository's post-checkout hook and filters/],
    ['git checkout HEAD~1 -- .claude/policies.yaml .claude/settings.json', ['.claude/policies.yaml', '.claude/settings.json'], /git checkout can run the repository's post-checkout hook and filters/],
    ['git checkout HEAD~3 .claude/settings.json', ['.claude/settings.json'], /git checkout can run the repository's post-checkout hook and filters/],
    ['git checkout HEAD src/a.ts', ['src/a.ts'], /git checkout can run the repository's post-checkout hook and filters/],
    ['git checkout 1a2b3c4 src/a.ts src/b.ts', ['src/a.ts', 'src/b.ts'], /git checkout can run the repository's post-checkout hook and filters/],
    ['git checkout .claude/policies.yaml', ['.claude/policies.yaml'], /git checkout can run the repository's post-checkout hook and filters/],
    ['git checkout .', ['.'], /git checkout can run the repository's post-checkout hook and filters/],
    ['git checkout -f -- src', ['src'], /git checkout can run the repository's post-checkout hook and filters/],
    ['git checkout --ours -- src/a.ts', ['src/a.ts'], /git checkout can run the repository's post-checkout hook and filters/],
    ['git restore .claude/policies.yaml', ['.claude/policies.yaml'], /git restore can run the repository's filters/],
    ['git restore --source HEAD~2 --worktree --staged -- src/a.ts', ['src/a.ts'], /git restore can run the repository's filters/],
    ['git restore -s v1.0 src/a.ts', ['src/a.ts'], /git restore can run the repository's filters/],
    ['git rm -rf .claude', ['.claude'], null],
    ['git rm -q src/a.ts src/b.ts', ['src/a.ts', 'src/b.ts'], null],
    ['git mv src/a.ts src/b.ts', ['src/a.ts', 'src/b.ts'], null],
    ['git stash push -m wip -- .claude/policies.yaml', ['.claude/policies.yaml'], /git stash can run the repository's filters/],
    ['git stash -- src/a.ts', ['src/a.ts'], /git stash can run the repository's filters/],
    ['git --no-pager checkout -- src/a.ts', ['src/a.ts'], /git checkout can run the repository's post-checkout hook and filters/],
    ['cd src && git checkout -- a.ts', ['src/a.ts'], /git checkout can run the repository's post-checkout hook and filters/],
    ["git checkout HEAD -- '.claude/*.yaml'", ['.claude'], /git checkout can run the repository's post-checkout hook and filters/],
  ])('%s writes %j; beyond them, not checkable where git runs the repository\'s own code (%s)', (command, paths, why) => {
    const r = run(command);
    expect(r.paths).toEqual(paths);
    if (why === null) expect(r.unchecked).toBeNull();
    else expect(r.unchecked).toMatch(why);
  });

  test.each<[string, string[], RegExp]>([
    // The paths are known wherever git runs; what else it may run is not.
    ['git -C .claude checkout HEAD -- policies.yaml', ['.claude/policies.yaml'], /git -C points git/],
    ['git -C a -C b rm x', ['a/b/x'], /git -C points git/],
    ['git -c core.hooksPath=/tmp/h checkout -- .claude/settings.json', ['.claude/settings.json'], /git -c points git/],
    ['git --git-dir=.git --work-tree=. checkout -- .claude/policies.yaml', ['.claude/policies.yaml'], /git --git-dir points git/],
    ['cd /tmp/repo && git checkout -- x', ['/tmp/repo/x'], /runs outside the project/],
    // `:/x`: from the repository's top, taken for the project's root.
    ["cd src && git restore --source HEAD~1 ':/.claude/policies.yaml'", ['.claude/policies.yaml'], /from the repository's top/],
    ["git checkout HEAD -- ':/'", ['.'], /from the repository's top/],
    // A branch that may be a file.
    ['git checkout main src/a.ts', ['src/a.ts'], /takes main for a file when no revision has that name/],
  ])('%s writes %j, and is not checkable beyond them', (command, paths, why) => {
    const r = run(command);
    expect(r.paths).toEqual(paths);
    expect(r.unchecked).toMatch(why);
  });

  test.each<[string, RegExp]>([
    ['git checkout main', /may switch branches/],
    ['git checkout', /without paths switches branches/],
    ['git checkout -b topic', /git checkout -b switches branches/],
    ['git checkout --pathspec-from-file=list.txt', /names its paths in a file/],
    ['git restore', /git restore without paths/],
    ['git stash', /git stash changes the working tree/],
    ['git stash pop', /git stash changes the working tree/],
    ['git stash push -m wip', /git stash changes the working tree/],
    ["git checkout HEAD -- ':(top)policies.yaml'", /not static|cannot|run-time/],
    ['git -C $D rm x', /not static/],
    ['git -c help.format=web -c web.browser=./x --help', /git -c points git/],
    ['git -C /tmp/repo --version', /git -C points git/],
  ])('%s is not checkable', (command, why) => {
    expect(run(command).unchecked).toMatch(why);
  });

  test.each([
    'git restore --staged src/a.ts',
    'git rm --cached src/a.ts',
    'git rm -n src/a.ts',
    'git mv --dry-run a b',
    'git stash list',
    'git stash show -p',
  ])('%s writes no file of the working tree', (command) => {
    expect(run(command)).toEqual({ paths: [], unchecked: null });
  });

  test.each<[string, string | null]>([
    ['src/a.ts', 'src/a.ts'],
    ['*.yaml', '.'],
    ['.claude/*.yaml', '.claude'],
    ['src/**/x?.ts', 'src'],
    ['/abs/*.ts', '/abs'],
    ['/*.ts', '/'],
    [':/policies.yaml', null],
    [':(glob)**/x', null],
  ])('pathspecTarget(%j) is %j', (spec, target) => {
    expect(pathspecTarget(spec)).toBe(target);
  });
});
