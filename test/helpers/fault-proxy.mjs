#!/usr/bin/env node
// A fault-injecting TCP proxy on 127.0.0.1: node fault-proxy.mjs <upstream-port> <mode>
// Modes: pass | delay:<ms> | blackhole | reset | drop | truncate:<bytes> | pass-first:<n> (then blackhole)
// Prints "ready <port>" once listening; stops on SIGTERM (and closes every socket it holds).
import net from 'node:net';

const [upstreamPort, mode = 'pass'] = process.argv.slice(2);
const [kind, arg] = mode.split(':');
const sockets = new Set();
let connections = 0;

function track(s) {
  sockets.add(s);
  s.on('close', () => sockets.delete(s));
  s.on('error', () => {});
  return s;
}

function forward(client, opts = {}) {
  const server = track(net.connect(Number(upstreamPort), '127.0.0.1'));
  let down = 0;
  const delay = opts.delayMs ?? 0;
  const send = (to, chunk) => (delay ? setTimeout(() => !to.destroyed && to.write(chunk), delay) : to.write(chunk));
  client.on('data', (c) => send(server, c));
  server.on('data', (c) => {
    if (opts.truncateAt !== undefined) {
      const room = opts.truncateAt - down;
      down += c.length;
      if (room <= 0) return;
      if (c.length >= room) {
        client.write(c.subarray(0, room));
        client.destroy();
        server.destroy();
        return;
      }
    }
    send(client, c);
  });
  const end = () => {
    setTimeout(() => {
      client.destroy();
      server.destroy();
    }, delay);
  };
  client.on('close', end);
  server.on('close', end);
}

const proxy = net.createServer((client) => {
  track(client);
  connections++;
  switch (kind) {
    case 'pass':
      return forward(client);
    case 'delay':
      return forward(client, { delayMs: Number(arg) });
    case 'truncate':
      return forward(client, { truncateAt: Number(arg) });
    case 'pass-first':
      if (connections <= Number(arg)) return forward(client);
      return client.on('data', () => {});
    case 'blackhole':
      // Accepts, reads and answers nothing, ever.
      return client.on('data', () => {});
    case 'reset':
      return client.once('data', () => client.resetAndDestroy());
    case 'drop':
      return client.end();
    default:
      client.destroy();
  }
});
proxy.listen(0, '127.0.0.1', () => process.stdout.write(`ready ${proxy.address().port}\n`));
const stop = () => {
  for (const s of sockets) s.destroy();
  proxy.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 500).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
