import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { applyChange, BASH_DEFAULTS, setChange, shellChange, shoptChange } from './glob-options';
import type { ListFolder } from './globs';
import { shellWrites } from './writes';

describe('what a command does to the pattern options', () => {
  it.each<[string, ReturnType<typeof shoptChange>]>([
    ['-s dotglob nocaseglob', { set: { dotglob: true, nocaseglob: true } }],
    ['-u nullglob', { set: { nullglob: false } }],
    ['-s globstar extglob failglob', { set: { globstar: true } }],
    ['-so noglob', { set: { noglob: true } }],
    ['-q dotglob', null],
    ['-p', null],
    ['-s', null],
  ])('shopt %s', (args, change) => {
    expect(shoptChange(args.split(' '))).toEqual(change);
  });

  it('a name that is not static may be any option', () => {
    expect(shoptChange(['-s', null])).toBe('unknown');
    expect(setChange(['-o', null])).toBe('unknown');
  });

  it.each<[string, ReturnType<typeof setChange>]>([
    ['-f', { set: { noglob: true } }],
    ['+f', { set: { noglob: false } }],
    ['-euf', { set: { noglob: true } }],
    ['-o noglob', { set: { noglob: true } }],
    ['+o noglob', { set: { noglob: false } }],
    ['-e -o pipefail', null],
    ['-- -f', null],
  ])('set %s', (args, change) => {
    expect(setChange(args.split(' '))).toEqual(change);
  });

  it('a nested shell\'s own options', () => {
    expect(shellChange(['-O', 'dotglob', '-c', 'x'])).toEqual({ set: { dotglob: true } });
    expect(shellChange(['-f', '-c', 'x'])).toEqual({ set: { noglob: true } });
    expect(shellChange(['-o', 'noglob', '+O', 'nullglob', '-c', 'x'])).toEqual({ set: { noglob: true, nullglob: false } });
    expect(shellChange(['-c', 'x'])).toBeNull();
  });

  it('in a branch or a loop, an option that may be moved is maybe', () => {
    expect(applyChange(BASH_DEFAULTS, { set: { dotglob: true } }, false).dotglob).toBe(true);
    expect(applyChange(BASH_DEFAULTS, { set: { dotglob: true } }, true).dotglob).toBe('maybe');
    expect(applyChange(BASH_DEFAULTS, { set: { dotglob: false } }, true).dotglob).toBe(false);
    expect(Object.values(applyChange(BASH_DEFAULTS, 'unknown', false))).toEqual(['maybe', 'maybe', 'maybe', 'maybe', 'maybe']);
  });
});

describe('a Bash command judged with the pattern options it sets (before: bash\'s defaults, whatever it set)', () => {
  let dir: string;
  const listFs: ListFolder = (absolute) => {
    try {
      return fs.readdirSync(absolute);
    } catch {
      return null;
    }
  };
  beforeAll(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-globopts-')));
    for (const f of ['.claude/policies.yaml', '.claude/settings.json', 'src/a.ts', 'src/deep/b.ts']) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      fs.writeFileSync(path.join(dir, f), '');
    }
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const writes = (command: string) => shellWrites(command, { cwd: dir, projectRoot: dir, listFolder: listFs, isFolder: (p) => listFs(path.join(dir, p)) !== null });
  const paths = (command: string) => writes(command).paths.map((p) => p.path).sort();

  it.each([
    ['shopt -s nocaseglob; rm .[C]LAUDE/POLICIES.YAM[L]', ['.claude/policies.yaml']],
    ['shopt -s dotglob; mv -- ?claude x', ['.claude', 'x']],
    ['shopt -s dotglob && mv -- ?claude x', ['.claude', 'x']],
    ['shopt -s globstar dotglob; rm **/settings.json', ['.claude/settings.json']],
    ['shopt -s extglob\nrm .claude/@(policies|other).yaml', ['.claude/policies.yaml']],
    ['builtin shopt -s dotglob; rm -r ?claude', ['.claude']],
    ['eval "shopt -s dotglob"; rm -r ?claude', ['.claude']],
    ['f() { shopt -s dotglob; }; f; rm -r ?claude', ['.claude']],
    ['if true; then shopt -s dotglob; fi; rm -r ?claude', ['.claude']],
    ['false && shopt -s dotglob; rm -r ?claude', ['.claude']],
    // Any option may be on from there: set -f too, so the word as written is named as well.
    ['trap "shopt -s dotglob" DEBUG; rm -r ?claude', ['.claude', '?claude']],
    ['bash -O dotglob -c "rm -r ?claude"', ['.claude']],
    ['shopt -s $opt; rm -r ?claude', ['.claude', '?claude']],
    ['shopt -s nocaseglob; shopt -u nocaseglob; rm .[C]LAUDE/x', ['.[C]LAUDE/x']],
    ['(shopt -s dotglob); rm -r ?claude', ['?claude']],
    ['shopt -s dotglob; bash -c "rm -r ?claude"', ['?claude']],
    ['set -f; rm .claude/*', ['.claude/*']],
    ['set -f; set +f; rm .claude/*', ['.claude/policies.yaml', '.claude/settings.json']],
    ['shopt -s nullglob; cp src/*.zz src/a.ts dest', ['dest']],
  ])('%s', (command, expected) => {
    expect(paths(command)).toEqual(expected);
  });

  it('GLOBIGNORE, BASHOPTS and SHELLOPTS: not checkable, and patterns read as they may then be', () => {
    const ignore = writes('GLOBIGNORE=x; mv -- ?claude x');
    expect(ignore.paths.map((p) => p.path).sort()).toEqual(['.claude', 'x']);
    expect(ignore.unchecked).toMatch(/GLOBIGNORE/);
    const nested = writes('BASHOPTS=dotglob bash -c "rm -r ?claude"');
    expect(nested.paths.map((p) => p.path)).toEqual(expect.arrayContaining(['.claude']));
    expect(nested.unchecked).toMatch(/BASHOPTS/);
  });

  it('a pattern that matches nothing where nullglob may be on is not static (which operand is the destination depends on it)', () => {
    expect(writes('if true; then shopt -s nullglob; fi; cp src/*.zz src/a.ts dest').unchecked).toMatch(/not static/);
  });
});
