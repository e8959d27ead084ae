// In-process throughput: the compiled engine (dist/hook.cjs's evaluate + render) over the
// bench's four events in turn, with the policy compiled once by dist/compile.cjs.
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * Events per second for one project, over about `seconds` of work after a warm-up, and
 * per event kind.
 */
export async function inProcessRate(repo, project, seconds = 1.5) {
  const require = createRequire(join(repo, 'package.json'));
  const hook = require(join(repo, 'dist', 'hook.cjs'));
  const { compilePolicyFiles } = require(join(repo, 'dist', 'compile.cjs'));
  const built = compilePolicyFiles([join(project.dir, '.claude', 'policies.yaml')]);
  if (!built.policy) throw new Error(`${project.name}: the policy does not build`);
  const policy = built.policy;
  const ctx = { projectRoot: project.dir, env: {}, facts: hook.createFileFacts(project.dir), now: Date.now };
  const kinds = Object.keys(project.events);
  const one = async (kind) => {
    const decision = await hook.evaluate(policy, project.events[kind], ctx);
    return hook.renderResponse(decision, { onError: policy.settings.onError });
  };
  for (let i = 0; i < 200; i++) await one(kinds[i % kinds.length]);

  const perKind = {};
  for (const kind of kinds) {
    const start = process.hrtime.bigint();
    let n = 0;
    const budget = (seconds / kinds.length) * 1e9;
    while (Number(process.hrtime.bigint() - start) < budget) {
      for (let i = 0; i < 50; i++) await one(kind);
      n += 50;
    }
    perKind[kind] = n / (Number(process.hrtime.bigint() - start) / 1e9);
  }
  // The mix: the harmonic mean of the kinds, i.e. the rate of an even round-robin.
  const mix = kinds.length / kinds.reduce((sum, k) => sum + 1 / perKind[k], 0);
  return { eventsPerSecond: mix, perKind, rules: policy.rules.length };
}
