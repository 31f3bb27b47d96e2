/**
 * Structured logs, one JSON object per line, on stderr only: over stdio, stdout is the protocol channel.
 * Callers never pass credentials here; `redact` is a second line of defence for values that slip through.
 */
import type { RuntimeConfig } from './config.js';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
type Level = keyof typeof LEVELS;

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** Where log lines go: one JSON line (with its newline); `urgent` for warnings and errors. */
export type LogSink = (line: string, urgent: boolean) => void;

/** stderr, gathered per turn of the event loop (see `out` below): the Node process's default. */
export const stderrSink: LogSink = (line, urgent) => (urgent ? out.writeNow(line) : out.write(line));

/** The console, one call per line: the web targets (Workers, Deno, Bun, Lambda), whose platforms collect it. */
export const consoleSink: LogSink = (line) => console.error(line.trimEnd());

export function createLogger(
  level: RuntimeConfig['logLevel'],
  secrets: () => readonly string[] = () => [],
  sink: LogSink = stderrSink,
): Logger {
  const write = (at: Level, msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[at] < LEVELS[level]) return;
    sink(`${redact(JSON.stringify({ level: at, msg, ...fields }), secrets())}\n`, LEVELS[at] >= LEVELS.warn);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
  };
}

/** The owner's logger (createServer's `logger`), given messages and fields with known secrets redacted. */
export function redactingLogger(logger: Logger, secrets: () => readonly string[]): Logger {
  const clean = (fields: Record<string, unknown> | undefined) =>
    fields === undefined
      ? undefined
      : (JSON.parse(redact(JSON.stringify(fields), secrets())) as Record<string, unknown>);
  return {
    debug: (m, f) => logger.debug(redact(m, secrets()), clean(f)),
    info: (m, f) => logger.info(redact(m, secrets()), clean(f)),
    warn: (m, f) => logger.warn(redact(m, secrets()), clean(f)),
    error: (m, f) => logger.error(redact(m, secrets()), clean(f)),
  };
}

/**
 * stderr writes are synchronous system calls (files, and pipes on Linux). Under load an HTTP server logs a
 * line per request, so debug and info lines are gathered and written once per turn of the event loop;
 * warnings and errors go out at once (after anything gathered, to keep the order), and whatever is still
 * gathered is written when the process exits.
 */
let pending: string[] = [];
let exitHooked = false;

const out = {
  write(line: string): void {
    if (!exitHooked) {
      exitHooked = true;
      process.once('exit', flush);
    }
    if (pending.push(line) === 1) setImmediate(flush);
  },
  writeNow(line: string): void {
    flush();
    process.stderr.write(line);
  },
};

function flush(): void {
  if (pending.length === 0) return;
  const text = pending.join('');
  pending = [];
  process.stderr.write(text);
}

/** Replaces every occurrence of a known secret (4+ characters) with `[redacted]`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  // Checked first: almost no text holds a secret, and splitting copies the whole text.
  for (const secret of secrets)
    if (secret.length >= 4 && out.includes(secret)) out = out.split(secret).join('[redacted]');
  return out;
}
