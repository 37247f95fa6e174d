import net from 'node:net';

/**
 * A TCP port nobody listens on at this moment, from the kernel (listen on 0, read it, close): for the tests and the
 * benchmark that start servers. A port picked at random in a fixed range once met RabbitMQ's epmd on 4369 (this
 * machine runs other services too).
 */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
