// nginx as the load balancer in front of generated servers (test/e2e/deploy/scale-out.test.ts, bench/scale-out.mjs):
// started with its own configuration under a temporary prefix, listening on 127.0.0.1 only, round-robin
// over the given replicas, with an access log that names the replica of every request.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './mcp-harness.mjs';

/** The nginx binary, or an error saying how to install it (`.ci/run` installs the Debian package). */
export function nginxBinary() {
  for (const candidate of ['nginx', '/usr/sbin/nginx']) {
    const probe = spawnSync(candidate, ['-v'], { stdio: 'ignore' });
    if (probe.status === 0) return candidate;
  }
  throw new Error('nginx is not installed: apt-get update && apt-get install -y nginx');
}

/** Starts nginx in front of `replicaPorts`; resolves once it accepts connections. */
export async function startNginx(replicaPorts) {
  const prefix = mkdtempSync(join(tmpdir(), 'otm-nginx-'));
  for (const dir of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(prefix, dir));
  const port = await freePort();
  const config = join(prefix, 'nginx.conf');
  writeFileSync(config, configText(prefix, port, replicaPorts));
  const child = spawn(nginxBinary(), ['-p', prefix, '-c', config, '-e', join(prefix, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not start: ${stderr}${readOr(join(prefix, 'error.log'))}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    /** The replica (127.0.0.1:port) and status of each request, in order ("-" for none). */
    accessLog: () =>
      readOr(join(prefix, 'access.log'))
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [upstream, status] = line.split(' ');
          return { upstream, status: Number(status) };
        }),
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

function configText(prefix, port, replicaPorts) {
  const servers = replicaPorts.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n');
  return `daemon off;
master_process off;
worker_processes 1;
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'error.log')} warn;
events { worker_connections 4096; }
http {
  log_format replica '$upstream_addr $status';
  access_log ${join(prefix, 'access.log')} replica;
  client_body_temp_path ${join(prefix, 'body')};
  proxy_temp_path ${join(prefix, 'proxy')};
  fastcgi_temp_path ${join(prefix, 'fastcgi')};
  uwsgi_temp_path ${join(prefix, 'uwsgi')};
  scgi_temp_path ${join(prefix, 'scgi')};
  upstream replicas {
    # Round-robin (nginx's default): every request goes to the next replica, whatever the client connection.
${servers}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://replicas;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      # SSE answers (2025-11-25 clients) stream through as they come.
      proxy_buffering off;
      # A replica that refuses the connection is skipped; a request it already received is not resent.
      proxy_next_upstream error timeout;
    }
  }
}
`;
}

function readOr(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function accepts(port) {
  return fetch(`http://127.0.0.1:${port}/`).then(
    () => true,
    () => false,
  );
}
