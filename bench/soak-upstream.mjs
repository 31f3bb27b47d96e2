// The scripted upstream of bench/soak.mjs, on 127.0.0.1: GET /pet/{id} answers by pet id (1 ok, 2 404, 3 500,
// 4 429, 5 slower than SOAK_TIMEOUT_MS, 6 a 2 MiB pet, 7 a reset connection); POST /pet reads the whole body
// and answers a pet when it is at least SOAK_LARGE_BODY bytes. Prints its URL as a JSON line on stdout.
import { createServer } from 'node:http';

const TIMEOUT_MS = Number(process.env.SOAK_TIMEOUT_MS ?? 5000);
const LARGE_BODY = Number(process.env.SOAK_LARGE_BODY ?? 0);
const PET = JSON.stringify({ id: 1, name: 'doggie', photoUrls: [], status: 'available' });
const LARGE_RESPONSE = JSON.stringify({ id: 6, name: 'x'.repeat(2 * 1024 * 1024), photoUrls: [] });

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('error', () => undefined);
  req.on('end', () => answer(req, res, Buffer.concat(chunks)));
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () =>
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })}\n`),
);
process.on('SIGTERM', () => process.exit(0));

function answer(req, res, body) {
  res.on('error', () => undefined);
  const json = (status, text, headers = {}) =>
    res
      .writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
      .end(text);
  if (req.method === 'POST' && req.url === '/pet')
    return body.length < LARGE_BODY ? json(400, '{"message":"body too small"}') : json(200, PET);
  switch (/^\/pet\/(\d+)/.exec(req.url ?? '')?.[1]) {
    case '1':
      return json(200, PET);
    case '2':
      return json(404, '{"message":"Pet not found"}');
    case '3':
      return json(500, '{"message":"boom"}');
    case '4':
      return json(429, '{"message":"slow down"}', { 'retry-after': '0' });
    case '5': {
      const timer = setTimeout(() => json(200, PET), TIMEOUT_MS * 3);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    case '6':
      return json(200, LARGE_RESPONSE);
    case '7':
      return req.socket.destroy();
    default:
      return json(400, '{"message":"unknown pet"}');
  }
}
