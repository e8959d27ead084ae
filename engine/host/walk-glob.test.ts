import fc from 'fast-check';
import picomatch from 'picomatch';
import { FC_RUNS, fcParams } from '../../test/support/fuzz-config';
import { simpleWalkGlob, walkGlob } from './walk-glob';

describe('simpleWalkGlob', () => {
  test.each<[string, string, boolean]>([
    ['.agent/teams/*/global-context.md', '.agent/teams', true],
    ['.agent/teams/t1/**/murdock/L1-index.yaml', '.agent/teams/t1', true],
    ['src/a.ts', 'src/a.ts', false],
    ['./src/deep/*', 'src/deep', true],
    ['/abs/dir/*.md', '/abs/dir', true],
    ['**/.env', '', true],
    ['docs/{a,b}/x.md', 'docs', true],
  ])('%s starts at %s', (glob, base, isGlob) => {
    const plan = simpleWalkGlob(glob);
    expect(plan).not.toBeNull();
    expect(plan && { base: plan.base, isGlob: plan.isGlob }).toEqual({ base, isGlob });
  });

  test.each([
    ['src/[ab].ts'],
    ['src/@(a|b).ts'],
    ['src/!(a).ts'],
    ['src/{a,{b,c}}.ts'],
    ['src/{a,b/c}.ts'],
    ['src/{a}.ts'],
    ['src/{a,b.ts'],
    ['../up/*'],
    ['src//a'],
    ['src/'],
    ['src/a**'],
    ['src/x{a,}'],
    ['?$$'],
  ])('leaves %s to picomatch', (glob) => {
    expect(simpleWalkGlob(glob)).toBeNull();
    expect(walkGlob(glob).base).toBe(picomatch.scan(glob).base);
  });

  test.each<[string, string, boolean]>([
    ['a/**', 'a', true],
    ['a/**/b', 'a/b', true],
    ['a/**/b', 'a/x/y/b', true],
    ['**/b', 'b', true],
    ['*.md', '.md', true],
    ['*.md', 'x/a.md', false],
    ['*/**', 'a', false],
    ['*/**', 'a/b', true],
    ['src/*.{ts,md}', 'a.md', true],
    ['src/*.{ts,md}', 'a.js', false],
    ['a?c/*', 'abc/x', true],
    ['a?c/*', 'ac/x', false],
  ])('%s on %s: %s', (glob, path, expected) => {
    expect(simpleWalkGlob(glob)?.test(path)).toBe(expected);
  });

  test.each<[string, string]>([
    ['a/**/b', 'a/x\ny/b'],
    ['a/**', 'a/x\ny'],
    ['**', 'x\u2028y'],
    ['**/b', 'x\ry/b'],
    ['a/*', 'a/x\ny'],
  ])('%s on a name with a line terminator (%j) agrees with picomatch', (glob, path) => {
    const plan = simpleWalkGlob(glob);
    const rel = plan && plan.base !== '' ? path.slice(plan.base.length + 1) : path;
    expect(plan?.test(rel)).toBe(picomatch(glob, { dot: true })(path));
  });

  it('leaves a name with more than 64 alternatives to picomatch', () => {
    const many = 'x/{a,b,c,d}{e,f,g,h}{i,j,k,l}{m,n,o,p}.md';
    expect(simpleWalkGlob(many)).toBeNull();
    expect(walkGlob(many).test('aeim.md')).toBe(true);
    expect(simpleWalkGlob('x/{a,b,c,d}{e,f,g,h}{i,j,k,l}.md')?.test('dhl.md')).toBe(true);
  });
});

const segmentChar = fc.constantFrom('a', 'b', '.', '-', '_', 'é', '$', '^', ',');
const name = fc.array(segmentChar, { minLength: 1, maxLength: 4 }).map((cs) => cs.join('')).filter((s) => s !== '.' && s !== '..');
const globPiece = fc.oneof(
  fc.constantFrom('*', '?', '**', 'a', 'b', '.', '-', ',', '$'),
  fc.tuple(name, name).map(([x, y]) => `{${x},${y}}`),
  fc.tuple(name, fc.constantFrom('*', '?', '')).map(([x, y]) => `{${x}${y},b}`),
);
const globSegment = fc.oneof(fc.constant('**'), fc.array(globPiece, { minLength: 1, maxLength: 4 }).map((ps) => ps.join('')));
const glob = fc.array(globSegment, { minLength: 1, maxLength: 4 }).map((ss) => ss.join('/'));
const path = fc.array(name, { minLength: 1, maxLength: 5 }).map((ss) => ss.join('/'));

describe('simpleWalkGlob agrees with picomatch (dot: true)', () => {
  it('on where to start and what matches under it', () => {
    let compared = 0;
    fc.assert(
      fc.property(glob, fc.array(path, { minLength: 1, maxLength: 8 }), (g, paths) => {
        const plan = simpleWalkGlob(g);
        if (plan === null) return;
        const scan = picomatch.scan(g);
        expect({ glob: g, base: plan.base, isGlob: plan.isGlob }).toEqual({ glob: g, base: scan.base, isGlob: scan.isGlob });
        if (!scan.isGlob) return;
        const reference = picomatch(scan.glob, { dot: true });
        compared++;
        for (const p of paths) expect({ glob: g, path: p, match: plan.test(p) }).toEqual({ glob: g, path: p, match: reference(p) });
      }),
      fcParams(5),
    );
    // The generator must reach the simple path often enough for the comparison to mean something.
    expect(compared).toBeGreaterThan(FC_RUNS);
  });

  it('on paths built to match', () => {
    let built = 0;
    // Random paths rarely match a random glob; these are the glob with its wildcards filled in.
    const filled = glob.chain((g) => fc.tuple(fc.constant(g), fc.array(name, { minLength: 12, maxLength: 12 })));
    fc.assert(
      fc.property(filled, ([g, names]) => {
        const plan = simpleWalkGlob(g);
        const scan = picomatch.scan(g);
        if (plan === null || !scan.isGlob) return;
        built++;
        let k = 0;
        const fill = (s: string) => s.replace(/\{([^,}]*),[^}]*\}/g, '$1').replace(/\*\*|\*|\?/g, (w) => (w === '?' ? 'a' : names[k++ % names.length]));
        const p = fill(scan.glob);
        if (p.split('/').some((s) => s === '' || s === '.' || s === '..')) return;
        expect({ glob: g, path: p, match: plan.test(p) }).toEqual({ glob: g, path: p, match: picomatch(scan.glob, { dot: true })(p) });
      }),
      fcParams(5),
    );
    expect(built).toBeGreaterThan(FC_RUNS);
  });
});

describe('simpleWalkGlob in time linear in the names', () => {
  test('many `**` over a deep path answers at once', () => {
    const deep = Array.from({ length: 2000 }, () => 'a').join('/');
    const started = Date.now();
    expect(simpleWalkGlob('**/a/**/a/**/a/**/a/**/b')?.test(deep)).toBe(false);
    expect(simpleWalkGlob('**/a/**/a/**/a/**/a/**/a')?.test(deep)).toBe(true);
    expect(simpleWalkGlob('**/a*a*a*a*a*a*a*b/**')?.test(`${'a'.repeat(250)}/x`)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test('a glob left to picomatch is marked for the watchdog', () => {
    expect(walkGlob('notes/[a]*b.md').native).toBe(true);
    expect(walkGlob('notes/*b.md').native).toBeUndefined();
  });
});
