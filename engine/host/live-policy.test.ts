import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { compilePolicyFiles } from './compile-entry';
import { createLivePolicy } from './live-policy';

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'live-policy-')));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const policy = (reason: string) => `version: 1\nrules:\n  - { id: r, on: Stop, block: "${reason}" }\n`;
const settle = () => new Promise((r) => setTimeout(r, 250));

it('rebuilds when a source changes, not when another file of its folder does (the decision log beside it)', async () => {
  const file = path.join(dir, 'policies.yaml');
  fs.writeFileSync(file, policy('first'));
  const builds: string[] = [];
  const live = createLivePolicy({
    roots: () => [file],
    env: {},
    dirs: [path.join(dir, 'cache')],
    compiler: () => ({ compilePolicyFiles }),
    onBuild: (_roots, result) => builds.push(String(result.policy?.rules[0]?.message)),
  });
  try {
    expect(live.get().result.policy?.rules[0]?.message).toBe('first');
    for (let i = 0; i < 3; i++) fs.appendFileSync(path.join(dir, 'policy-decisions.jsonl'), `{"n":${i}}\n`);
    await settle();
    expect(builds).toEqual(['first']);
    fs.writeFileSync(file, policy('second'));
    await settle();
    expect(builds).toEqual(['first', 'second']);
    expect(live.get().result.policy?.rules[0]?.message).toBe('second');
  } finally {
    live.close();
  }
});
