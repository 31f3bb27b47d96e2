// A fast fake upstream API for the load test: every request gets the same canned Pet as JSON.
// Runs as its own process so its CPU does not compete with the load generator's event loop.
// A request for pet 0 is answered after HOLD_MS: code mode's bench holds programs in flight with it.
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

const HOLD_MS = 1_500;

const server = createServer((req, res) => {
  req.resume();
  if (req.url?.endsWith('/pet/0')) setTimeout(() => res.writeHead(200, HEADERS).end(PET), HOLD_MS);
  else res.writeHead(200, HEADERS).end(PET);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${address.port}` })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
