/**
 * A PATH without some programs: a temp folder of links to every program of the caller's
 * PATH but those (to show what happens on a machine that lacks bubblewrap, say).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** @example pathWithout(['bwrap', 'socat']) // '/tmp/hp-path-XXXX' */
export function pathWithout(left: readonly string[]): string {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-path-'));
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir === '' || !fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir)) {
      if (left.includes(name) || fs.existsSync(path.join(bin, name))) continue;
      fs.symlinkSync(path.join(dir, name), path.join(bin, name));
    }
  }
  return bin;
}
