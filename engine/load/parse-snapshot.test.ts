import * as fs from 'fs';
import * as path from 'path';
import { parsePolicyText } from './parse';
import { snapshotOf, snapshotSourceMap, type ParseSnapshot } from './parse-snapshot';

const packDir = path.join(__dirname, '..', '..', 'policies');
const packs = fs.readdirSync(packDir).filter((f) => f.endsWith('.yaml'));

/** The snapshot as a build writes and a runner reads it: through JSON. */
const stored = (snapshot: ParseSnapshot | null): ParseSnapshot => JSON.parse(JSON.stringify(snapshot)) as ParseSnapshot;

describe('a parse snapshot', () => {
  it.each(packs)('of %s gives the document and every key and value position the parse gives', (name) => {
    const file = path.join(packDir, name);
    const text = fs.readFileSync(file, 'utf8');
    const parsed = parsePolicyText(file, text);
    const snapshot = stored(snapshotOf(parsed));
    let fallbacks = 0;
    const map = snapshotSourceMap(file, snapshot, () => {
      fallbacks++;
      return parsePolicyText(file, text).map;
    });
    expect(snapshot.doc).toEqual(parsed.doc);
    const pointers = Object.keys(snapshot.at);
    expect(pointers.length).toBeGreaterThan(50);
    for (const pointer of pointers) {
      expect([pointer, map.locate(pointer)]).toEqual([pointer, parsed.map.locate(pointer)]);
      expect([pointer, map.locate(pointer, 'key')]).toEqual([pointer, parsed.map.locate(pointer, 'key')]);
    }
    expect(fallbacks).toBe(0);
  });

  it('answers what its table does not hold from the text parsed once: other pointers, offsets in a string, the pointer at a position', () => {
    const text = 'version: 1\nrules:\n  - id: a\n    on: Stop\n    block: "say x"\n';
    const parsed = parsePolicyText('p.yaml', text);
    let fallbacks = 0;
    const map = snapshotSourceMap('p.yaml', stored(snapshotOf(parsed)), () => {
      fallbacks++;
      return parsePolicyText('p.yaml', text).map;
    });
    expect(map.locate('/rules/0/block')).toEqual({ file: 'p.yaml', line: 5, column: 12 });
    expect(fallbacks).toBe(0);
    expect(map.locate('/rules/0/missing')).toEqual(parsed.map.locate('/rules/0/missing'));
    expect(map.locate('/rules/00/on')).toEqual(parsed.map.locate('/rules/00/on'));
    expect(map.locateIn('/rules/0/block', 4)).toEqual(parsed.map.locateIn('/rules/0/block', 4));
    expect(map.pointerAt(4, 9)).toBe('/rules/0/on');
    expect(fallbacks).toBe(1);
  });

  it('is not taken of a parse with diagnostics or without a document', () => {
    expect(snapshotOf(parsePolicyText('p.yaml', 'a: 1\na: 2\n'))).toBeNull();
    expect(snapshotOf(parsePolicyText('p.yaml', 'rules: [oops\n'))).toBeNull();
    expect(snapshotOf(parsePolicyText('p.yaml', ''))).toBeNull();
  });

  it('keeps a key with / or ~ under its escaped pointer', () => {
    const parsed = parsePolicyText('p.yaml', 'match:\n  "a/b~c": 1\n');
    expect(Object.keys(snapshotOf(parsed)!.at)).toEqual(['', '/match', '/match/a~1b~0c']);
  });
});
