// A port nothing listens on right now, for a process that must be given one (`--port` and PORT take
// 1..65535, so port 0 is not an option there); tests running in parallel never share a fixed port.
import net from 'node:net';

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
