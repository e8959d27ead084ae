import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sandboxUnavailable } from './sandbox-runtime';

/** A PATH folder holding these scripts. */
function binWith(scripts: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-sandbox-bin-'));
  for (const [name, body] of Object.entries(scripts)) fs.writeFileSync(path.join(dir, name), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return dir;
}

const linux = process.platform === 'linux' ? it : it.skip;

describe('can Claude Code\'s sandbox start here', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  linux('names what is missing from PATH', () => {
    const bin = binWith({ bwrap: 'exit 0' });
    dirs.push(bin);
    expect(sandboxUnavailable({ PATH: bin })).toBe('socat is not on PATH (Debian and Ubuntu: apt-get install bubblewrap socat; Fedora: dnf install bubblewrap socat)');
    expect(sandboxUnavailable({ PATH: '' })).toMatch(/^bwrap \(bubblewrap\) and socat are not on PATH/);
  });

  linux('runs bubblewrap once as the sandbox does, and says why it cannot make its namespaces', () => {
    const bin = binWith({ bwrap: 'echo "bwrap: setting up uid map: Permission denied" >&2; exit 1', socat: 'exit 0' });
    dirs.push(bin);
    expect(sandboxUnavailable({ PATH: bin })).toBe('bubblewrap cannot make its namespaces here (bwrap: setting up uid map: Permission denied)');
    const works = binWith({ bwrap: 'exit 0', socat: 'exit 0' });
    dirs.push(works);
    expect(sandboxUnavailable({ PATH: works })).toBeNull();
  });

  it('knows nothing to check on a platform without the sandbox', () => {
    expect(sandboxUnavailable({ PATH: '' }, 'win32')).toBeNull();
  });
});
