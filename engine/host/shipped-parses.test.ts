import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { buildPolicy } from '../build-policy';
import * as parseModule from '../load/parse';
import * as validateModule from '../validate';
import { createFsReader, defaultPackDir } from './fs-reader';
import { readShippedParses, SHIPPED_PARSES_FILE, shippedParsesOf } from './shipped-parses';

const packDir = defaultPackDir();
let tmp: string;
let root: string;

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-shipped-')));
  root = path.join(tmp, 'policies.yaml');
  fs.writeFileSync(root, 'version: 1\ninclude: [ai-team, dia, security-guard]\nrules:\n  - id: mine\n    on: Stop\n    block: not yet\n');
});
afterEach(() => {
  jest.restoreAllMocks();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The build's file, made now, as a runner reads it back. */
const shipped = (dir = packDir) => {
  const text = JSON.stringify(shippedParsesOf(dir));
  return () => (JSON.parse(text) as ReturnType<typeof shippedParsesOf>).files;
};
const parsedFiles = (spy: jest.SpyInstance) => spy.mock.calls.map(([file]) => path.basename(String(file)));

describe('the shipped packs parsed at build time', () => {
  it('compile to the same policy, diagnostics and positions, and only the files that are not packs are parsed', () => {
    const plain = buildPolicy([root], createFsReader(packDir));
    const snapshots = shipped();
    const spy = jest.spyOn(parseModule, 'parsePolicyText');
    const fast = buildPolicy([root], createFsReader(packDir, snapshots));
    expect(parsedFiles(spy)).toEqual(['policies.yaml']);
    expect(fast.policy).toEqual(plain.policy);
    expect(fast.diagnostics).toEqual(plain.diagnostics);
    expect(fast.policy!.rules.find((r) => r.id.startsWith('guard-no-rm-root'))?.source).toEqual(expect.objectContaining({ file: path.join(packDir, 'security-guard.yaml').split(path.sep).join('/'), line: expect.any(Number) }));
  });

  it('are not used for a pack whose text changed: that one is parsed, with its own positions', () => {
    const copy = path.join(tmp, 'packs');
    fs.cpSync(packDir, copy, { recursive: true });
    const snapshots = shipped(copy);
    const dia = path.join(copy, 'dia.yaml');
    fs.writeFileSync(dia, `# edited\n${fs.readFileSync(dia, 'utf8')}`);
    const spy = jest.spyOn(parseModule, 'parsePolicyText');
    const fast = buildPolicy([root], createFsReader(copy, snapshots));
    expect(parsedFiles(spy).sort()).toEqual(['dia.yaml', 'policies.yaml']);
    spy.mockRestore();
    const plain = buildPolicy([root], createFsReader(copy));
    expect(fast.policy).toEqual(plain.policy);
    const first = fast.policy!.rules.find((r) => r.source.file.endsWith('dia.yaml'))!;
    expect(first.source.line).toBe(plain.policy!.rules.find((r) => r.id === first.id)!.source.line);
  });

  it("carry the packs' expressions parsed: a policy adding none of its own compiles without loading JSONata", () => {
    const snapshots = shipped();
    const diaRoot = path.join(tmp, 'dia-only.yaml');
    fs.writeFileSync(diaRoot, 'version: 1\ninclude: [dia]\n');
    const expected = buildPolicy([diaRoot], createFsReader(packDir)).policy;
    expect(JSON.stringify(expected)).toContain('"whenFast"');
    jest.isolateModules(() => {
      jest.doMock('jsonata', () => {
        throw new Error('JSONata was loaded');
      });
      /* eslint-disable @typescript-eslint/no-require-imports */
      const isolated = { build: require('../build-policy') as typeof import('../build-policy'), reader: require('./fs-reader') as typeof import('./fs-reader') };
      /* eslint-enable @typescript-eslint/no-require-imports */
      const fast = isolated.build.buildPolicy([diaRoot], isolated.reader.createFsReader(packDir, snapshots));
      expect(fast.diagnostics).toEqual([]);
      expect(fast.policy).toEqual(expected);
      // A policy with an expression of its own does load it (here: fails, as mocked).
      fs.writeFileSync(diaRoot, 'version: 1\ninclude: [dia]\nrules:\n  - id: mine\n    on: Stop\n    when: "stop_hook_active = false"\n    block: not yet\n');
      expect(() => isolated.build.buildPolicy([diaRoot], isolated.reader.createFsReader(packDir, snapshots))).toThrow('JSONata was loaded');
    });
  });

  it('say which packs validate, and a compile does not validate those again; a pack that does not is validated as any file', () => {
    const copy = path.join(tmp, 'packs');
    fs.cpSync(packDir, copy, { recursive: true });
    // One pack with a schema error (an unknown key in a rule), parsed cleanly all the same.
    const dia = path.join(copy, 'dia.yaml');
    fs.writeFileSync(dia, fs.readFileSync(dia, 'utf8').replace(/^(  - id: [^\n]+\n)/m, '$1    colour: blue\n'));
    const files = shippedParsesOf(copy).files;
    expect(Object.values(files).map((f) => f.valid === true).filter(Boolean)).toHaveLength(Object.keys(files).length - 1);
    const plain = buildPolicy([root], createFsReader(copy));
    expect(plain.diagnostics.map((d) => d.code)).toContain('schema-unknown-key');
    const validate = jest.spyOn(validateModule, 'validatePlaced');
    const fast = buildPolicy([root], createFsReader(copy, () => files));
    expect(validate.mock.calls.map(([f]) => path.basename(f.file)).sort()).toEqual(['dia.yaml', 'policies.yaml']);
    expect(fast.diagnostics).toEqual(plain.diagnostics);
    expect(fast.policy).toEqual(plain.policy);
  });

  it('are used only by the build that wrote them', () => {
    const files = shippedParsesOf(packDir).files;
    fs.writeFileSync(path.join(tmp, SHIPPED_PARSES_FILE), JSON.stringify({ engine: '0.1.0+abc', files }));
    expect(readShippedParses(tmp, '0.1.0+abc')).toEqual(files);
    expect(readShippedParses(tmp, '0.1.0+def')).toBeNull();
    expect(readShippedParses(tmp, '0.1.0+dev')).toBeNull();
    expect(readShippedParses(path.join(tmp, 'nowhere'), '0.1.0+abc')).toBeNull();
    fs.writeFileSync(path.join(tmp, SHIPPED_PARSES_FILE), '{"engine":"0.1.0+abc","files":');
    expect(readShippedParses(tmp, '0.1.0+abc')).toBeNull();
  });

  it('hold every shipped pack', () => {
    const packs = fs.readdirSync(packDir).filter((f) => f.endsWith('.yaml'));
    expect(Object.keys(shippedParsesOf(packDir).files)).toHaveLength(packs.length);
  });
});
