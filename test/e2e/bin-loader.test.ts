/**
 * bin/policy.cjs's relativeScript: which relative requires of a lazily loaded dependency
 * bin loads by path, without Node's resolver. It must name the file Node would load, by
 * the real path Node would give it, or decline (null) and leave the request to Node.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { relativeScript } = require('../../bin/policy.cjs') as { relativeScript: (dir: string, id: string) => string | null };

let root: string;
let pkg: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bin-loader-')));
  pkg = path.join(root, 'node_modules', 'dep', 'lib');
  const files: Record<string, string> = {
    'util.js': '', 'plain.cjs': '', 'both': '', 'both.js': '', 'data.json': '{}', 'folder/index.js': '', 'folder.js': '',
    'methods/wrappers.js': '', 'addon.node': '', '../outside.js': '',
  };
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(pkg, name)), { recursive: true });
    fs.writeFileSync(path.join(pkg, name), text);
  }
  fs.mkdirSync(path.join(pkg, 'only-folder'));
  fs.writeFileSync(path.join(pkg, 'only-folder', 'index.js'), '');
  fs.symlinkSync(path.join(pkg, 'util.js'), path.join(pkg, 'linked.js'));
  fs.symlinkSync(path.join(pkg, 'methods'), path.join(pkg, 'linked-folder'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('relativeScript', () => {
  it('finds a script by its exact name or with .js, as Node looks first', () => {
    expect(relativeScript(pkg, './util')).toBe(path.join(pkg, 'util.js'));
    expect(relativeScript(pkg, './util.js')).toBe(path.join(pkg, 'util.js'));
    expect(relativeScript(pkg, './plain.cjs')).toBe(path.join(pkg, 'plain.cjs'));
    expect(relativeScript(pkg, './methods/wrappers')).toBe(path.join(pkg, 'methods', 'wrappers.js'));
    expect(relativeScript(pkg, '../outside')).toBe(path.join(root, 'node_modules', 'dep', 'outside.js'));
    expect(relativeScript(path.join(pkg, 'methods'), '../util')).toBe(path.join(pkg, 'util.js'));
  });

  it('takes a folder named like the request as Node does: the file beside it wins, a folder alone goes to Node', () => {
    expect(relativeScript(pkg, './folder')).toBe(path.join(pkg, 'folder.js'));
    expect(relativeScript(pkg, './only-folder')).toBeNull();
  });

  it('declines what Node would load as something else: an extensionless file first, JSON, an addon', () => {
    // Node loads `both` (the exact name) before `both.js`: not a .js file, so Node decides.
    expect(relativeScript(pkg, './both')).toBeNull();
    expect(relativeScript(pkg, './data.json')).toBeNull();
    expect(relativeScript(pkg, './data')).toBeNull();
    expect(relativeScript(pkg, './addon.node')).toBeNull();
    expect(relativeScript(pkg, './missing')).toBeNull();
  });

  it('declines a symlink, to the file or to a folder on the way, whose real path only Node resolves', () => {
    expect(relativeScript(pkg, './linked')).toBeNull();
    expect(relativeScript(pkg, './linked.js')).toBeNull();
    expect(relativeScript(pkg, './linked-folder/wrappers')).toBeNull();
  });

  it('declines bare names and absolute paths', () => {
    expect(relativeScript(pkg, 'bindings')).toBeNull();
    expect(relativeScript(pkg, path.join(pkg, 'util.js'))).toBeNull();
  });
});
