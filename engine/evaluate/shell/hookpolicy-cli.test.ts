import { shellWrites } from './writes';

const root = '/proj';
const run = (command: string, cwd = root) => {
  const r = shellWrites(command, { cwd, projectRoot: root, home: '/home/u' });
  return { paths: r.paths.map((p) => p.path), unchecked: r.unchecked };
};

describe("hookpolicy's own command line, run by an agent", () => {
  test.each<[string, string[]]>([
    ['policy uninstall', ['.claude/settings.json']],
    ['policy init', ['.claude/settings.json', '.claude/policies.yaml']],
    ['hookpolicy init --scope local --mode command', ['.claude/settings.local.json', '.claude/policies.yaml']],
    ['policy uninstall --scope user', ['/home/u/.claude/settings.json']],
    ['policy uninstall --scope managed', []],
    ['policy uninstall --scope "$S"', ['.claude/settings.json', '.claude/settings.local.json', '/home/u/.claude/settings.json']],
    ['policy uninstall --project-dir /other', ['/other/.claude/settings.json']],
    ['policy uninstall --project-dir "$PWD"', ['.claude/settings.json']],
    ['cd src && npx policy uninstall', ['.claude/settings.json']],
    ['npx hookpolicy uninstall', ['.claude/settings.json']],
    ['npx -y hookpolicy@0.1.0 uninstall', ['.claude/settings.json']],
    ['bunx hookpolicy init', ['.claude/settings.json', '.claude/policies.yaml']],
    ['pnpx policy memory forget --all', ['.claude/hookpolicy/memory/index.db']],
    ['npm exec -- policy uninstall', ['.claude/settings.json']],
    ['npm x hookpolicy uninstall', ['.claude/settings.json']],
    ['pnpm dlx hookpolicy uninstall', ['.claude/settings.json']],
    ['yarn policy uninstall', ['.claude/settings.json']],
    ['npm uninstall hookpolicy', ['node_modules/hookpolicy']],
    ['npm i -D hookpolicy@0.0.1', ['node_modules/hookpolicy']],
    ['cd src && pnpm remove hookpolicy', ['node_modules/hookpolicy']],
    ['yarn add hookpolicy@latest', ['node_modules/hookpolicy']],
    ['bun rm hookpolicy', ['node_modules/hookpolicy']],
  ])('%s writes %j (and is not checkable beyond them)', (command, paths) => {
    const r = run(command);
    expect(r.paths).toEqual(paths);
    expect(r.unchecked).not.toBeNull();
  });

  test.each([
    ['npx policy lint', /policy: not a command whose writes are known/],
    ['npx policy memory list', /policy: not a command whose writes are known/],
    ['npx jest', /npx: not a command whose writes are known/],
    ['npx prettier --write src', /npx: not a command whose writes are known/],
    ['npm test', /npm: not a command whose writes are known/],
    ['npm exec -- prettier --write src', /npm: not a command whose writes are known/],
    ['yarn build', /yarn: not a command whose writes are known/],
    ['npm install', /npm: not a command whose writes are known/],
    ['npm install left-pad', /npm: not a command whose writes are known/],
    ['npm uninstall hookpolicy-extra', /npm: not a command whose writes are known/],
  ])('%s writes nothing known, and is not checkable', (command, why) => {
    expect(run(command)).toEqual({ paths: [], unchecked: expect.stringMatching(why) });
  });
});
