/**
 * A test's stand-in for a new process: modules loaded afresh (what a module remembers per
 * process starts empty), with a count of the times picomatch was loaded meanwhile (a
 * compile that meets only known globs must not load it).
 */

/**
 * Runs `run` on the modules `load` requires, in a module registry of their own.
 * @example inFreshProcess(() => require('./glob-regex'), (m, picomatchLoads) => { m.globRegex('src/**'); return picomatchLoads(); }) // 1
 */
export function inFreshProcess<M, T>(load: () => M, run: (modules: M, picomatchLoads: () => number) => T): T {
  let out: { value: T } | undefined;
  jest.isolateModules(() => {
    let loads = 0;
    jest.doMock('picomatch', () => {
      loads++;
      return jest.requireActual('picomatch');
    });
    out = { value: run(load(), () => loads) };
  });
  return (out as { value: T }).value;
}
