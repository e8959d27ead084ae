import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { BASH_DEFAULTS, type GlobOptions } from './glob-options';
import { expandGlob, expandWord, globPattern, type ListFolder } from './globs';
import { shellWrites } from './writes';

const listFs: ListFolder = (absolute) => {
  try {
    return fs.readdirSync(absolute);
  } catch {
    return null;
  }
};

let dir: string;
beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-globs-')));
  for (const f of ['.claude/policies.yaml', '.claude/settings.json', '.claude/team/a.yaml', '.env', '.env.local', 'a.ts', 'b.ts', 'ab.md', '[x].txt', 'sp ace.txt', 'src/x.ts', 'src/y.js', 'src/deep/er/z.ts', '.hid/h.ts']) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), '');
  }
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** What bash passes for the word, run in `dir` with the shopt options given (a line of their own: extglob needs it): the oracle. */
function bash(word: string, options: string[] = []): string[] {
  const setup = options.map((o) => (o === 'noglob' ? 'set -f\n' : `shopt -s ${o}\n`)).join('');
  const out = execFileSync('bash', ['-c', `${setup}for a in ${word}; do printf '%s\\0' "$a"; done`], { cwd: dir, encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

/** The same word through the scanner's parts (one unquoted part unless quoted pieces are given). */
function ours(word: string, options: string[] = []): string[] | null {
  const glob: GlobOptions = { ...BASH_DEFAULTS };
  for (const o of options) if (o in glob) glob[o as keyof GlobOptions] = true;
  return expandWord([{ quote: '', raw: word }], { home: os.homedir(), cwd: dir, list: listFs, glob }) as string[] | null;
}

describe('pathname expansion, checked against bash', () => {
  it.each([
    '.claude/*', '.claude/*.yaml', '.claude/*/*', '*', '*.ts', '?.ts', '[ab].ts', '[!a].ts', '[^a].ts', '.*', '.en?', '.env*',
    'src/*', '*/x.ts', 'nothing*', 'no/such/*', 'a\\**', '[[]x].txt', '.claude/*/', '*/',
    '[[:alpha:]].ts', '[a-b].ts', '*.[tj]s', 'src/[xy].*', '/dev/nul?', './*.ts', 'src/../.claude/p*', '.claude/../.e*', 'sp*',
  ])('%s', (word) => {
    expect(ours(word)).toEqual(bash(word));
  });

  it.each<[string, string[]]>([
    ['.[C]LAUDE/POLICIES.YAM[L]', ['nocaseglob']], ['.CLAUDE/*', ['nocaseglob']], ['.claude/SETTINGS.*', ['nocaseglob']], ['*.TS', ['nocaseglob']],
    ['?claude', ['dotglob']], ['*', ['dotglob']], ['*/*.yaml', ['dotglob']], ['?claude/*', ['dotglob', 'nocaseglob']],
    ['nothing*', ['nullglob']], ['.claude/*', ['nullglob']],
    ['**', ['globstar']], ['src/**', ['globstar']], ['**/', ['globstar']], ['**/*.ts', ['globstar']], ['**/z.ts', ['globstar']],
    ['src/**/', ['globstar']], ['**/*.yaml', ['globstar', 'dotglob']], ['**/settings.json', ['globstar', 'dotglob']], ['**', ['globstar', 'dotglob']],
    ['.claude/@(pol*|set*)', ['extglob']], ['@(.claude)/*', ['extglob']], ['?(.)claude/*', ['extglob']], ['*(.)claude', ['extglob']],
    ['.claude/+(p)olicies.yaml', ['extglob']], ['.claude/@(policies|x).yaml', ['extglob']], ['@(a|b{1,2}).ts', ['extglob']],
    ['.claude/*', ['noglob']], ['*.ts', ['noglob']],
  ])('%s with %j', (word, options) => {
    expect(ours(word, options)).toEqual(bash(word, options));
  });

  it('reads *(x), +(x) and !(x) as any text, naming no fewer than bash (and no slower on any name)', () => {
    for (const word of ['!(src)', '.claude/!(pol*)', '+(a|b).ts']) {
      const theirs = bash(word, ['extglob']);
      expect(ours(word, ['extglob'])).toEqual(expect.arrayContaining(theirs));
    }
    const slow: ListFolder = () => [`${'a'.repeat(60)}!`];
    const started = Date.now();
    expect(expandGlob('+(+(a|aa))+(+(a|aa))b', '/p', slow)).toEqual(['+(+(a|aa))+(+(a|aa))b']);
    expect(Date.now() - started).toBeLessThan(100);
  });

  it('under an option that may or may not be on, names what either would', () => {
    const maybe = (o: Partial<GlobOptions>) => expandWord([{ quote: '', raw: '?claude' }], { cwd: dir, list: listFs, glob: { ...BASH_DEFAULTS, ...o } });
    expect(maybe({ dotglob: 'maybe' })).toEqual(['.claude']);
    expect(expandWord([{ quote: '', raw: '.claude/p*' }], { cwd: dir, list: listFs, glob: { ...BASH_DEFAULTS, noglob: 'maybe' } })).toEqual(['.claude/p*', '.claude/policies.yaml']);
    // nullglob maybe: whether the word is there at all changes which operand is the destination.
    expect(expandWord([{ quote: '', raw: 'nothing*' }], { cwd: dir, list: listFs, glob: { ...BASH_DEFAULTS, nullglob: 'maybe' } })).toBeNull();
  });

  it('is no pattern when nothing in it expands, or when it has another expansion', () => {
    for (const raw of ['plain.txt', '\\*', 'a\\*', '\\[x\\].txt', '.claude/']) expect(globPattern([{ quote: '', raw }])).toBeNull();
    expect(globPattern([{ quote: '"', raw: '*' }])).toBeNull();
    expect(globPattern([{ quote: "'", raw: '*' }])).toBeNull();
    expect(globPattern([{ quote: '', raw: '$HOME/*' }])).toBeNull();
    expect(globPattern([{ quote: '', raw: '{a,b}*' }])).toBeNull();
    // Quoted text stays literal beside an unquoted star.
    expect(globPattern([{ quote: '"', raw: '.c*' }, { quote: '', raw: '/*' }])).toBe('.c\\*/*');
  });

  it('matches in time linear in the name, whatever the pattern (before: a backtracking regex, minutes for this one)', () => {
    const names: ListFolder = () => ['a'.repeat(250), `${'a'.repeat(249)}b`];
    const started = Date.now();
    expect(expandGlob('*a*a*a*a*a*a*a*a*b', '/p', names)).toEqual([`${'a'.repeat(249)}b`]);
    expect(expandGlob('@(*a|*a)@(*a|*a)@(*a|*a)*c', '/p', names, { ...BASH_DEFAULTS, nocaseglob: true })).toEqual(['@(*a|*a)@(*a|*a)@(*a|*a)*c']);
    expect(Date.now() - started).toBeLessThan(200);
  });

  it('a bracket bash matches nothing with is no error', () => {
    expect(expandGlob('[z-a]*', dir, listFs)).toEqual(['[z-a]*']);
  });

  it('too many names, or no working folder: not known', () => {
    const many: ListFolder = () => Array.from({ length: 3000 }, (_, i) => `f${i}`);
    expect(expandGlob('*', '/p', many)).toBeNull();
    expect(expandGlob('*', null, listFs)).toBeNull();
  });
});

describe('a Bash command judged on the names its patterns match', () => {
  const writes = (command: string) => shellWrites(command, { cwd: dir, projectRoot: dir, listFolder: listFs });

  it.each([
    ['rm -rf .claude/*', ['.claude/policies.yaml', '.claude/settings.json', '.claude/team'], null],
    ['rm .en?', ['.env'], null],
    ['echo x > .en?', ['.env'], null],
    ['cp a.ts .claude/polic*', ['.claude/policies.yaml'], null],
    ['mv .claude/*.yaml /tmp/', ['/tmp/policies.yaml', '.claude/policies.yaml'], null],
    ['rm -rf .*', ['.claude', '.env', '.env.local', '.hid'], null],
    ['cd .claude && rm *', ['.claude/policies.yaml', '.claude/settings.json', '.claude/team'], null],
  ])('%s', (command, paths, unchecked) => {
    const found = writes(command);
    expect(found.paths.map((p) => p.path).sort()).toEqual([...paths].sort());
    expect(found.unchecked).toBe(unchecked);
  });

  it('a redirect whose pattern matches several names is bash\'s "ambiguous redirect": not checkable', () => {
    expect(writes('echo x > *.ts').unchecked).toMatch(/not static/);
  });

  it('without a way to list folders, a pattern is not static, as before', () => {
    expect(shellWrites('rm -rf .claude/*', { cwd: dir, projectRoot: dir }).unchecked).toMatch(/not static/);
  });
});

describe('brace expansion, checked against bash', () => {
  const braces = (word: string) => expandWord([{ quote: '', raw: word }], { cwd: dir, list: listFs });
  it.each([
    '.claude/{policies.yaml,settings.json}', 'a{b,c}d', 'x{a,b{1..2}}', '{1..3}', '{01..10}', '{a..e}', '{1..9..2}', '{5..1}', '{-2..2}',
    '{a,b}{1,2}', '{a}', '{}', 'a{,b}', '{x,y', '.{claude,git}', '{a..c..2}', 'src/{*.ts,*.js}', '{.e,n}*', 'a\\{b,c}',
  ])('%s', (word) => {
    const bashWords = bash(word);
    const expands = bashWords.length !== 1 || bashWords[0] !== word.replace(/\\(.)/g, '$1');
    expect(braces(word) ?? [word.replace(/\\(.)/g, '$1')]).toEqual(expands ? bashWords : [word.replace(/\\(.)/g, '$1')]);
  });

  it('too many words: not known', () => {
    expect(braces('{1..5000}')).toBeNull();
    expect(braces('{1..50}{1..50}')).toBeNull();
  });

  it('a Bash command judged on every word its braces make', () => {
    const found = shellWrites('rm .claude/{policies.yaml,settings.json} && touch "a"{1..2}', { cwd: dir, projectRoot: dir, listFolder: listFs });
    expect(found.paths.map((p) => p.path).sort()).toEqual(['.claude/policies.yaml', '.claude/settings.json', 'a1', 'a2']);
    expect(found.unchecked).toBeNull();
  });
});
