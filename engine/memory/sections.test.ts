import { changedSections, changedShare, headingOf, sectionOf, sectionsDelta, sectionsDigest, splitSections } from './sections';

const V1 = 'version: GC-v1\n\n## Scope\nLDAP login\n\n## Decisions\n- use ldapjs\n\n## Risks\nnone yet\n';
const V2 = 'version: GC-v2\n\n## Scope\nLDAP login\n\n## Decisions\n- use ldapjs\n- cache binds\n\n## API\nPOST /login\n';

describe('splitSections', () => {
  it('names the text before the first heading "" and keeps headings inside fences as text', () => {
    const s = splitSections('top\n## A\n```\n## not a heading\n```\n### B\nb\n');
    expect(s.map((x) => x.heading)).toEqual(['', 'A', 'B']);
    expect(s[1].body).toBe('```\n## not a heading\n```');
  });

  it('reads CRLF documents and trailing hashes', () => {
    expect(splitSections('## A ##\r\none\r\n').map((x) => [x.heading, x.body])).toEqual([['A', 'one']]);
  });
});

describe('sectionsDelta', () => {
  it('says what was added, changed and removed, with the new bodies', () => {
    expect(sectionsDelta(V1, V2)).toBe(
      '- CHANGED: (top).version: GC-v1 → GC-v2\n- CHANGED: Decisions\n  - use ldapjs\n  - cache binds\n- ADDED: API\n  POST /login\n- REMOVED: Risks',
    );
  });

  // Seed 001's delta: `- CHANGED: {section.field}: {old} → {new}`, also from the digest an agent's earlier version was kept as.
  it('gives a section of fields field by field, old → new, from a document or its digest', () => {
    const before = 'version: GC-v3\n\n## Auth\nprovider: ldap\ntimeout: 30s\nretries: 2\n';
    const after = 'version: GC-v4\n\n## Auth\nprovider: oidc\ntimeout: 30s\nissuer: https://id.example\n';
    const expected = '- CHANGED: (top).version: GC-v3 → GC-v4\n- CHANGED: Auth.provider: ldap → oidc\n- ADDED: Auth.issuer: https://id.example\n- REMOVED: Auth.retries';
    expect(sectionsDelta(before, after)).toBe(expected);
    expect(sectionsDelta(sectionsDigest(before), after)).toBe(expected);
    // A digest of the first format kept no fields: the section's new text, as before.
    expect(sectionsDelta('#sections-digest v1\nabc\tAuth', after)).toContain('- CHANGED: Auth\n  provider: oidc');
  });

  it('changedShare: the share of sections changed, for the full-context fallback from half on', () => {
    expect(changedShare('## A\nx\n## B\ny', '## A\nx\n## B\nz')).toBe(0.5);
    expect(changedShare(sectionsDigest('## A\nx\n## B\ny\n## C\nq'), '## A\nx\n## B\ny\n## C\nq')).toBe(0);
    expect(changedShare('## A\nx', '## B\ny')).toBe(1);
  });

  it('is empty when nothing changed but whitespace around bodies', () => {
    expect(sectionsDelta(V1, V1.replace('LDAP login\n', 'LDAP login\n\n\n'))).toBe('');
  });

  it('sees a change to either of two sections with the same heading', () => {
    expect(changedSections('## A\nx\n## A\ny', '## A\nx\n## A\nz')).toEqual(['A']);
  });
});

describe('changedSections', () => {
  it('lists each changed heading once', () => {
    expect(changedSections(V1, V2)).toEqual(['', 'Decisions', 'API', 'Risks']);
    expect(changedSections(V1, V1)).toEqual([]);
  });
});

describe('sectionOf', () => {
  const team = '# Team memory\n\n## lead\nplan: v2\n\n## researcher-1\nfound: bind pooling\n\n## implementer-1\nwip\n';

  it('names the section an edit falls in', () => {
    expect(sectionOf(team, 'found: bind pooling')).toBe('researcher-1');
    expect(sectionOf(team, 'wip')).toBe('implementer-1');
  });

  it('places no edit that runs across a heading, touches a heading line, repeats or is absent', () => {
    expect(sectionOf(team, 'bind pooling\n\n## implementer-1\nwip')).toBeNull();
    expect(sectionOf(team, '## researcher-1')).toBeNull();
    expect(sectionOf(team, 'i')).toBeNull();
    expect(sectionOf(team, 'nowhere')).toBeNull();
    expect(sectionOf(team, '')).toBeNull();
  });
});

describe('sectionsDigest', () => {
  it('stands in for the earlier version: the same delta, from a fraction of the text', () => {
    const big = `${V1}\n## Appendix\n${'long text\n'.repeat(2000)}`;
    const digest = sectionsDigest(big);
    expect(digest.length).toBeLessThan(200);
    expect(sectionsDelta(digest, V2)).toBe(sectionsDelta(big, V2));
    expect(changedSections(digest, big)).toEqual([]);
    expect(changedSections(digest, big.replace('cache binds', 'x'))).toEqual([]);
    expect(changedSections(digest, big.replace('ldapjs', 'passport'))).toEqual(['Decisions']);
  });

  it('reads identical documents with a repeated heading as unchanged, and a change to either as changed', () => {
    const doc = '## A\nx\n## A\ny';
    expect(changedSections(doc, doc)).toEqual([]);
    expect(changedSections(sectionsDigest(doc), doc)).toEqual([]);
    expect(changedSections(sectionsDigest(doc), '## A\nx\n## A\nz')).toEqual(['A']);
  });
});

describe('headingOf', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fc = require('fast-check') as typeof import('fast-check');
  const HEADING = /^#{1,6}[ \t]+(.*?)[ \t#]*$/;

  test('reads a line as the heading regex did (property)', () => {
    const line = fc.string({ unit: fc.constantFrom('#', ' ', '\t', 'a', 'B', '\u2028', '\u2029', '\r', '.'), maxLength: 14 });
    fc.assert(fc.property(line, (l) => headingOf(l) === (HEADING.exec(l)?.[1] ?? null)), { seed: 20261130, numRuns: 20000 });
  });

  test('answers at once on a line built to make that regex backtrack', () => {
    const started = Date.now();
    expect(headingOf(`# ${' '.repeat(20_000)}x${' '.repeat(20_000)}\u2028`)).toBeNull();
    expect(splitSections(`## A\none\n# ${' '.repeat(20_000)}\u2028\n## B\ntwo`).map((s) => s.heading)).toEqual(['A', 'B']);
    expect(Date.now() - started).toBeLessThan(500);
  });
});
