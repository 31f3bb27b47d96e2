// A fast fake upstream API for the load test: every request gets the same canned Pet as JSON.
// Runs as its own process so its CPU does not compete with the load generator's event loop.
import { createServer } from 'node:http';

const PET = JSON.stringify({
  id: 10,
  name: 'doggie',
  category: { id: 1, name: 'Dogs' },
  photoUrls: ['https://example.com/doggie.png'],
  tags: [{ id: 1, name: 'good' }],
  status: 'available',
});
const HEADERS = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(PET)) };

const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, HEADERS).end(PET);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${address.port}` })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
