/**
 * A port on 127.0.0.1 that nothing listens on right now (the kernel's pick), for a server a
 * test starts there.
 */
import * as net from 'node:net';

/** @example const port = await freePort(); // 40123 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
