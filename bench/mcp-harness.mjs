// What the HTTP benchmarks (bench/run.mjs, bench/soak.mjs) share: building a generated server, the modern
// tools/call request, reading its answer, and the processes they start.
import { execFileSync } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('..', import.meta.url));
export const PROTOCOL = '2026-07-28';

/** Generates a server from `spec` into `dir` with the built generator, compiles it; returns its entry point. */
export async function generateAndBuild(spec, dir, options = {}) {
  const { generate } = await import(new URL('../dist/src/index.js', import.meta.url).href);
  await generate({ spec, out: dir, validate: false, ...options });
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
  buildProject(dir);
  return join(dir, 'dist', 'index.js');
}

/** Builds a generated project as its owner does: its own `npm run build` (tsc, then the bundle of the Node entries). */
export function buildProject(dir) {
  try {
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: dir, stdio: 'pipe' });
  } catch (error) {
    // tsc writes its errors to stdout: show both streams of a failed build.
    process.stderr.write(`${error.stdout ?? ''}${error.stderr ?? ''}`);
    throw error;
  }
}

/** A stateless 2026-07-28 tools/call over Streamable HTTP, as fetch options. */
export function toolCallRequest(tool, args) {
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL,
      'mcp-method': 'tools/call',
      'mcp-name': tool,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: tool,
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': PROTOCOL,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  };
}

/** The answer is JSON in the modern path; SSE (`data:` lines) is accepted too, in case a server streams. */
export function parseJsonOrSse(text) {
  try {
    return JSON.parse(text);
  } catch {
    const data = text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5))
      .join('');
    try {
      return JSON.parse(data);
    } catch {
      return undefined;
    }
  }
}

/** SIGTERM (the servers drain and exit 0), then SIGKILL if one has not gone within 12 s. */
export function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 12_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Resident set size from /proc (Linux): what the process holds in RAM right now. */
export function rssKiB(pid) {
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

export function positiveInt(raw, fallback) {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** The middle value (of an odd count; the upper middle of an even one). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** A plain-text table on stdout: the header, a rule, then the rows, columns padded. */
export function printTable(header, rows) {
  const all = [header, ...rows].map((r) => r.map(String));
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  for (const [i, row] of all.entries()) {
    console.log(row.map((cell, j) => cell.padEnd(widths[j])).join('  '));
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

/** A port on 127.0.0.1 that was free a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
