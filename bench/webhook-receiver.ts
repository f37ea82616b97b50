import { createServer } from 'node:http';

/**
 * A merchant's webhook receiver for the benchmark, in its own process: answers 200 at once and
 * records when each webhook-id first arrived. GET /stats returns { count, arrivals: {id: ms} }.
 */
const arrivals = new Map<string, number>();
let received = 0;

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ count: received, arrivals: Object.fromEntries(arrivals) }));
    return;
  }
  if (req.method === 'POST' && req.url === '/reset') {
    arrivals.clear();
    received = 0;
    res.end('{}');
    return;
  }
  req.resume();
  req.on('end', () => {
    const id = req.headers['webhook-id'];
    if (typeof id === 'string' && !arrivals.has(id)) arrivals.set(id, Date.now());
    received += 1;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('receiver listening\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
