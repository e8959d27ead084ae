import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
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
  for (const f of ['.claude/policies.yaml', '.claude/settings.json', '.claude/team/a.yaml', '.env', '.env.local', 'a.ts', 'b.ts', 'ab.md', '[x].txt', 'sp ace.txt', 'src/x.ts', 'src/y.js']) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), '');
  }
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** What bash passes for the word, run in `dir`: the oracle. */
function bash(word: string): string[] {
  const out = execFileSync('bash', ['-c', `printf '%s\\0' ${word}`], { cwd: dir, encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

/** The same word through the scanner's parts (one unquoted part unless quoted pieces are given). */
function ours(word: string): string[] | null {
  const pattern = globPattern([{ quote: '', raw: word }], os.homedir());
  if (pattern === null) return null;
  return expandGlob(pattern, dir, listFs) as string[] | null;
}

describe('pathname expansion, checked against bash', () => {
  it.each([
    '.claude/*', '.claude/*.yaml', '.claude/*/*', '*', '*.ts', '?.ts', '[ab].ts', '[!a].ts', '[^a].ts', '.*', '.en?', '.env*',
    'src/*', '*/x.ts', 'nothing*', 'no/such/*', 'a\\**', '[[]x].txt', '.claude/*/', '*/',
    '[[:alpha:]].ts', '[a-b].ts', '*.[tj]s', 'src/[xy].*', '/dev/nul?', './*.ts', 'src/../.claude/p*', '.claude/../.e*', 'sp*',
  ])('%s', (word) => {
    expect(ours(word)).toEqual(bash(word));
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
    ['rm -rf .*', ['.claude', '.env', '.env.local'], null],
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
