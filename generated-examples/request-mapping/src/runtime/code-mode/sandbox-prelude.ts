/**
 * The JavaScript that sandbox.ts evaluates inside QuickJS before a program: it takes the host functions
 * into a closure (the program never sees them), and defines what a program may use besides the language:
 * `api`, `ApiError`, `console` and a `Date` that tells the time it was given.
 */

/** The program's file name in stack traces and syntax errors. */
export const PROGRAM_FILE = 'program.js';
/** Lines the sandbox puts before the program (`__run(async function () {`). */
export const PROGRAM_LINE_OFFSET = 1;

/**
 * A function of `(host, now)`. `api` is a Proxy so that every operation name works without building a
 * thousand functions per program; `then` is not an operation (so `await api` is not mistaken for a promise).
 */
export const PRELUDE = String.raw`(function (host, now) {
  'use strict';
  const call = host.call, done = host.done, fail = host.fail, log = host.log;
  class ApiError extends Error {
    constructor(message, status, body) {
      super(message);
      this.name = 'ApiError';
      if (status !== undefined) this.status = status;
      if (body !== undefined) this.body = body;
    }
  }
  const operation = (name) => function (args) {
    const site = new Error().stack;
    const text = args === undefined ? '{}' : JSON.stringify(args);
    return call(name, text === undefined ? 'null' : text).then((answer) => {
      const settled = JSON.parse(answer);
      if (settled.ok) return settled.value;
      const error = new ApiError(settled.message, settled.status, settled.body);
      Object.defineProperty(error, 'site', { value: site });
      throw error;
    });
  };
  const api = new Proxy(Object.create(null), {
    get(target, name) {
      if (typeof name !== 'string' || name === 'then') return undefined;
      return operation(name);
    },
  });
  const show = (value) => {
    if (typeof value === 'string') return value;
    if (value instanceof Error) return value.name + ': ' + value.message;
    try { const text = JSON.stringify(value); return text === undefined ? String(value) : text; }
    catch (e) { return String(value); }
  };
  const logger = (level) => (...values) => log((level ? level + ': ' : '') + values.map(show).join(' '));
  const RealDate = Date;
  function FixedDate(...args) {
    if (!new.target) return new RealDate(now).toString();
    return args.length === 0 ? new RealDate(now) : new RealDate(...args);
  }
  FixedDate.prototype = RealDate.prototype;
  FixedDate.now = () => now;
  FixedDate.parse = RealDate.parse;
  FixedDate.UTC = RealDate.UTC;
  Object.defineProperty(RealDate.prototype, 'constructor', { value: FixedDate, writable: true, configurable: true });
  const report = (error) => {
    if (error instanceof Error) {
      const stack = error.site || error.stack;
      fail(JSON.stringify({ name: error.name, message: String(error.message), stack, status: error.status, body: error.body }));
    } else {
      fail(JSON.stringify({ name: 'Error', message: 'the program threw ' + show(error) }));
    }
  };
  const run = (program) => {
    delete globalThis.__run;
    program().then((value) => {
      let text;
      try { text = value === undefined ? undefined : JSON.stringify(value); }
      catch (error) { return report(new TypeError('the returned value cannot be written as JSON: ' + error.message)); }
      done(text);
    }, report);
  };
  Object.defineProperties(globalThis, {
    api: { value: api, enumerable: true },
    ApiError: { value: ApiError, writable: true, configurable: true },
    console: { value: { log: logger(''), info: logger(''), warn: logger('warn'), error: logger('error') }, writable: true, configurable: true },
    Date: { value: FixedDate, writable: true, configurable: true },
    __run: { value: run, configurable: true },
  });
})`;
