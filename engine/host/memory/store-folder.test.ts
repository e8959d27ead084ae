import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ensureStoreFolder, forgetStoreFolders, StoreRefusedError } from './store-folder';
import { tempStore } from './test-support';

let store: ReturnType<typeof tempStore>;
beforeEach(() => {
  forgetStoreFolders();
  store = tempStore();
});
afterEach(() => store.remove());

const posix = process.platform === 'win32' ? it.skip : it;
const ensure = () => ensureStoreFolder(store.dir, store.projectRoot);

// A process that lives on (the policy server) checks the folder at each call, as a
// runner started for that event would: what passed once is not taken on trust.
describe('ensureStoreFolder, once the folder has passed', () => {
  posix('refuses it swapped for a link to a folder planted in the project', () => {
    ensure();
    const planted = path.join(store.projectRoot, 'planted');
    fs.mkdirSync(planted, { mode: 0o700 });
    fs.renameSync(store.dir, `${store.dir}-moved`);
    fs.symlinkSync(planted, store.dir);
    expect(ensure).toThrow(new StoreRefusedError(`${store.dir} is a symbolic link; the memory store does not follow one`));
  });

  posix('refuses it opened to other users', () => {
    ensure();
    fs.chmodSync(store.dir, 0o777);
    expect(ensure).toThrow(/can be written by other users \(mode 777\)/);
  });

  posix('refuses it moved out of the project, a link put where its parent was', () => {
    ensure();
    const parent = path.dirname(store.dir);
    const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hp-outside-')));
    try {
      // The same folder (same inode), now reached through a link that leads out.
      fs.renameSync(parent, path.join(outside, 'hookpolicy'));
      fs.symlinkSync(path.join(outside, 'hookpolicy'), parent);
      expect(ensure).toThrow(/leads out of the project .* through a symbolic link/);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  posix('passes again once it is a folder of its own again, and makes it anew when removed', () => {
    ensure();
    fs.chmodSync(store.dir, 0o777);
    expect(ensure).toThrow(StoreRefusedError);
    fs.chmodSync(store.dir, 0o700);
    expect(ensure).not.toThrow();
    fs.rmSync(store.dir, { recursive: true });
    ensure();
    expect(fs.statSync(store.dir).mode & 0o777).toBe(0o700);
  });
});
