// In-process throughput: the compiled engine (dist/hook.cjs's evaluate + render) over the
// bench's four events in turn, with the policy compiled once by dist/compile.cjs; once with
// file facts read from the real disk at every evaluation, once with each fact read once and
// then answered from memory (the engine's own cost).
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * Facts that read the disk once per distinct question, then answer from memory. Every
 * method the runner's facts have is kept (`resolve`, `volume` included), so the engine
 * takes the same paths as in the runner.
 */
function memoized(facts) {
  const cache = new Map();
  const remember = (name) => (...args) => {
    const key = `${name}\0${args.join('\0')}`;
    if (!cache.has(key)) cache.set(key, facts[name](...args));
    return cache.get(key);
  };
  const out = {};
  for (const name of Object.keys(facts)) if (typeof facts[name] === 'function') out[name] = remember(name);
  return out;
}

const ROUNDS = 5;
const WARM_UP_NS = 1.2e9;

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** `factsFor()` gives the facts of one evaluation, as the runner makes one per event. */
async function rates(hook, policy, project, factsFor, seconds) {
  const kinds = Object.keys(project.events);
  const one = async (kind) => {
    // trace: false, as the runner and the policy server evaluate (nothing of theirs reads the trace).
    const ctx = { projectRoot: project.dir, env: {}, facts: factsFor(), now: Date.now, trace: false };
    const decision = await hook.evaluate(policy, project.events[kind], ctx);
    return hook.renderResponse(decision, { onError: policy.settings.onError });
  };
  // Warm-up, mixed, long enough for V8 to optimize the hot functions: on a loaded 2-core
  // machine its optimizing compiler, which runs on another thread, needs about a second
  // before the rates settle (a few hundred ms measured them 2-10 x too low).
  const warm = process.hrtime.bigint();
  for (let i = 0; Number(process.hrtime.bigint() - warm) < WARM_UP_NS || i < 400; i++) await one(kinds[i % kinds.length]);
  // Then ROUNDS rounds over the kinds, each kind's rate the median of its rounds: a kind
  // measured once, right after the mixed warm-up, paid V8's re-optimizations and a
  // collection of the compile's garbage (2-10 x slower than the same loop a moment later).
  const samples = Object.fromEntries(kinds.map((k) => [k, []]));
  const budget = (seconds / kinds.length / ROUNDS) * 1e9;
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of kinds) {
      const start = process.hrtime.bigint();
      let n = 0;
      while (Number(process.hrtime.bigint() - start) < budget) {
        for (let i = 0; i < 20; i++) await one(kind);
        n += 20;
      }
      samples[kind].push(n / (Number(process.hrtime.bigint() - start) / 1e9));
    }
  }
  const perKind = Object.fromEntries(kinds.map((k) => [k, median(samples[k])]));
  // The mix: the harmonic mean of the kinds, i.e. the rate of an even round-robin.
  const mix = kinds.length / kinds.reduce((sum, k) => sum + 1 / perKind[k], 0);
  return { eventsPerSecond: mix, perKind };
}

/**
 * Events per second for one project, over about `seconds` of work per facts mode after a
 * warm-up, and per event kind: { engine, disk, rules }.
 */
export async function inProcessRate(repo, project, seconds = 1.5) {
  const require = createRequire(join(repo, 'package.json'));
  const hook = require(join(repo, 'dist', 'hook.cjs'));
  const { compilePolicyFiles } = require(join(repo, 'dist', 'compile.cjs'));
  const built = compilePolicyFiles([join(project.dir, '.claude', 'policies.yaml')]);
  if (!built.policy) throw new Error(`${project.name}: the policy does not build`);
  const memory = memoized(hook.createFileFacts(project.dir));
  return {
    rules: built.policy.rules.length,
    engine: await rates(hook, built.policy, project, () => memory, seconds),
    disk: await rates(hook, built.policy, project, () => hook.createFileFacts(project.dir), seconds),
  };
}
