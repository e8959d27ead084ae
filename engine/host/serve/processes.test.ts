import { spawnSync } from 'child_process';
import { isAlive, isAncestor, listenerOwner, parentOf, processStart, socketOwner } from './processes';

// Two connections between 127.0.0.1:8707 and clients, a listener, and an IPv4 socket elsewhere, as /proc/net/tcp writes them.
const TABLE = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:2203 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1001 1 0000000000000000 100 0 0 10 0
   1: 0100007F:C822 0100007F:2203 01 00000000:00000000 00:00000000 00000000  1000        0 1002 1 0000000000000000 20 4 30 10 -1
   2: 0100007F:C823 0100007F:2203 01 00000000:00000000 00:00000000 00000000  1001        0 1003 1 0000000000000000 20 4 30 10 -1
   3: 0A000002:0016 0A000001:D431 01 00000000:00000000 00:00000000 00000000     0        0 1004 1 0000000000000000 20 4 30 10 -1
`;

it('reads the owner of a client socket and of a listener from /proc/net/tcp', () => {
  const server = { address: '127.0.0.1', port: 8707 };
  expect(socketOwner({ address: '127.0.0.1', port: 51234 }, server, TABLE)).toBe(1000);
  expect(socketOwner({ address: '::ffff:127.0.0.1', port: 51235 }, server, TABLE)).toBe(1001);
  expect(socketOwner({ address: '127.0.0.1', port: 51236 }, server, TABLE)).toBeNull();
  expect(socketOwner({ address: '::1', port: 51234 }, server, TABLE)).toBeNull();
  expect(socketOwner({ address: '127.0.0.1', port: 51234 }, server, null)).toBeNull();
  expect(listenerOwner(8707, TABLE)).toBe(1000);
  expect(listenerOwner(8708, TABLE)).toBeNull();
});

const linuxOnly = process.platform === 'linux' ? it : it.skip;

linuxOnly('knows this process, its parent, and a process that has exited', () => {
  const start = processStart(process.pid);
  expect(start).toMatch(/^\d+$/);
  expect(parentOf(process.pid)).toBe(process.ppid);
  expect(isAlive(process.pid, start)).toBe(true);
  expect(isAlive(process.pid, '1')).toBe(false);
  expect(isAncestor(process.ppid)).toBe(true);
  expect(isAncestor(process.pid)).toBe(false);
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  expect(isAlive(Number(child.stdout), null)).toBe(false);
  expect(processStart(Number(child.stdout))).toBeNull();
});
