/**
 * Node starts its inspector (a debugger on 127.0.0.1:9229 that runs any code it is sent)
 * when its process receives SIGUSR1, which any process of the same user may send: the
 * confined agent could take over the policy server that way. A listener of our own for
 * SIGUSR1 keeps Node from doing so (measured: no inspector opens); the signal is noted.
 */

/**
 * @example refuseInspector((line) => process.stderr.write(`${line}\n`))
 */
export function refuseInspector(log: (line: string) => void): void {
  process.on('SIGUSR1', () => log('SIGUSR1 received: the inspector stays off (a policy server takes no debugger)'));
}
