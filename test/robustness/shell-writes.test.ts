/**
 * Issue 12, section 3: the files a Bash command writes, through the built runner. A
 * descriptor reopened for writing writes the file it holds, whatever mode it was opened
 * in; a command whose writes the engine cannot see is not "writes nothing" but asked about
 * (the known commands are an allow list), unless the team declared it known.
 */
import { makeProject, type TempProject } from '../support/run-hook';
import { outcome, pre } from '../support/pre-tool-use';

describe('descriptors reopened for writing', () => {
  let project: TempProject;
  beforeAll(() => {
    project = makeProject([
      'version: 1',
      'rules:',
      '  - id: reviewer-writes-no-source',
      '    on: PreToolUse',
      '    tools: Bash',
      '    agents: lynch',
      '    paths: { deny: ["src/**"] }',
      '    deny: "lynch writes no source: {{path}}"',
      '',
    ].join('\n'), { 'src/a.ts': 'export const a = 1;\n' });
  });
  afterAll(() => project.remove());

  it.each([
    ['echo pwned 1<src/a.ts >/dev/stdout'],
    ['echo pwned 3<src/a.ts >/dev/fd/3'],
    ['< src/a.ts tee /dev/stdin'],
    ['echo pwned 3<src/a.ts >/proc/self/fd/3'],
    ['exec 3<src/a.ts; echo pwned >/dev/fd/3'],
    ['exec 4<src/a.ts; exec 5<&4; echo pwned >/dev/fd/5'],
    ['exec {fd}<src/a.ts; echo pwned >/dev/fd/10'],
    ['exec 3<src; echo pwned >/dev/fd/3/a.ts'],
    ['echo pwned >/proc/self/cwd/src/a.ts'],
  ])('%s', (command) => {
    const r = pre('Bash', { command }, project, 'lynch');
    expect(outcome(r)).toBe('deny');
    expect((r.json as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason).toBe('lynch writes no source: src/a.ts');
  });
});

describe('writes the engine cannot see are not "writes nothing"', () => {
  let project: TempProject;
  beforeAll(() => {
    project = makeProject([
      'version: 1',
      'rules:',
      '  - id: reviewer-writes-nothing',
      '    on: PreToolUse',
      '    tools: Bash',
      '    agents: lynch',
      '    paths: { deny: ["**"] }',
      '    deny: "lynch writes nothing: {{path}}"',
      '',
    ].join('\n'));
  });
  afterAll(() => project.remove());

  it.each([
    // writers the engine has no entry for
    'gzip src/a.ts', 'split -b 1 big src/part-', 'xxd -r dump src/a.ts', 'iconv -f latin1 -t utf-8 -o src/a.ts a',
    'openssl enc -in a -out src/a.ts', 'unzip -o x.zip', 'cpio -id < a.cpio', "sqlite3 db \"VACUUM INTO 'src/a.ts'\"",
    // wrappers
    'flock /tmp/l rm src/a.ts', 'taskset -c 0 rm src/a.ts', 'chrt -f 10 rm src/a.ts', 'unshare -r rm src/a.ts',
    "su -c 'rm src/a.ts' me", 'runuser -u me -- rm src/a.ts', 'watch -n 1 rm src/a.ts', 'parallel rm ::: src/a.ts',
    // aliases, traps, mapfile callbacks
    "alias ll='rm -rf src'; ll", 'mapfile -C rm -c 1 < list',
    // git, editors, build tools, package managers, scripts
    'git checkout main', 'git stash pop', 'git apply fix.diff', 'git clean -fdx', 'vim -es -c wq src/a.ts', 'make', 'npm install',
    'npx prettier --write src', './scripts/gen.sh', 'python3 gen.py',
    // configuration that changes what a known command runs
    'PATH=/tmp/evil:$PATH ls', 'GIT_EXTERNAL_DIFF=/tmp/x git diff', 'git -c core.fsmonitor=/tmp/x status',
  ])('%s is asked about', (command) => {
    expect(outcome(pre('Bash', { command }, project, 'lynch'))).toBe('ask');
  });

  it.each(['git checkout HEAD~1 -- src/a.ts', 'git restore --source main src', 'git rm -r src', 'git stash push -- src/a.ts', 'git -C src checkout HEAD a.ts'])('git naming the paths it writes: %s is denied', (command) => {
    expect(outcome(pre('Bash', { command }, project, 'lynch'))).toBe('deny');
  });

  it("a trap's script is analysed: trap 'rm src/a.ts' EXIT is denied", () => {
    expect(outcome(pre('Bash', { command: "trap 'rm src/a.ts' EXIT" }, project, 'lynch'))).toBe('deny');
  });

  it.each(['git status', 'git log --oneline -5', 'ls -la && cat README.md | head', 'grep -rn TODO src', 'node --version'])('%s writes nothing', (command) => {
    expect(outcome(pre('Bash', { command }, project, 'lynch'))).toBe('none');
  });
});


describe('settings.known_commands: commands the team trusts', () => {
  let project: TempProject;
  beforeAll(() => {
    project = makeProject([
      'version: 1',
      'settings:',
      '  known_commands: ["npm test", "npx jest"]',
      'rules:',
      '  - id: tester-writes-tests-only',
      '    on: PreToolUse',
      '    tools: Bash',
      '    agents: murdock',
      '    paths: { allow: ["**/*.test.*"] }',
      '    deny: "murdock writes tests only: {{path}}"',
      '',
    ].join('\n'));
  });
  afterAll(() => project.remove());

  it.each([
    ['npm test', 'none'],
    ['npx jest src --coverage', 'none'],
    ['npm install left-pad', 'ask'],
    ['npm test > src/report.txt', 'deny'],
  ])('%s -> %s', (command, expected) => {
    expect(outcome(pre('Bash', { command }, project, 'murdock'))).toBe(expected);
  });
});
