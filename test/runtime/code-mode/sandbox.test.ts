/**
 * The QuickJS sandbox on its own, in-process (as on Workers; sandbox-thread.ts runs it in a worker elsewhere):
 * what a program can reach (only `api.*`), how each limit stops it, and that every failure is an outcome,
 * never a thrown error, with the next program running normally.
 */
import { describe, expect, it } from 'vitest';
import {
  runInSandbox,
  type ApiAnswer,
  type SandboxLimits,
  type SandboxOutcome,
} from '../../../templates/runtime/code-mode/sandbox.js';
import { compileQuickJs } from '../../../templates/runtime/code-mode/quickjs-wasm.js';

const LIMITS: SandboxLimits = {
  timeoutMs: 5_000,
  maxComputeMs: 1_000,
  memoryBytes: 16 * 1024 * 1024,
  maxCalls: 5,
  maxResultBytes: 100_000,
};

interface Made {
  name: string;
  args: unknown;
}

async function run(
  code: string,
  options: {
    limits?: Partial<SandboxLimits>;
    answer?: (call: Made) => ApiAnswer | Promise<ApiAnswer>;
    signal?: AbortSignal;
  } = {},
): Promise<SandboxOutcome & { made: Made[] }> {
  const made: Made[] = [];
  const outcome = await runInSandbox({
    code,
    limits: { ...LIMITS, ...options.limits },
    now: Date.UTC(2026, 0, 2, 3, 4, 5),
    call: async (name, args) => {
      made.push({ name, args });
      return options.answer ? options.answer({ name, args }) : { ok: true, json: JSON.stringify({ name, args }) };
    },
    ...(options.signal ? { signal: options.signal } : {}),
    wasm: await compileQuickJs(),
  });
  return { ...outcome, made };
}

/** After any failure the sandbox still runs programs, and calls the API. */
async function expectStillServing(): Promise<void> {
  const next = await run('const r = await api.ping({ n: 1 });\nreturn r.args.n + 1;');
  expect(next).toMatchObject({ ok: true, json: '2' });
}

function errorOf(outcome: SandboxOutcome) {
  expect(outcome.ok).toBe(false);
  if (outcome.ok) throw new Error('unreachable');
  return outcome.error;
}

describe('sandbox: programs', () => {
  it('runs a multi-step program: awaits, loops, Promise.all, and returns JSON', async () => {
    const outcome = await run(
      [
        'const first = await api.list_things({ page: 1 });',
        'const all = await Promise.all([1, 2, 3].map((id) => api.get_thing({ id })));',
        'return { first: first.name, ids: all.map((t) => t.args.id) };',
      ].join('\n'),
      { limits: { maxCalls: 10 } },
    );
    expect(outcome).toMatchObject({ ok: true, json: '{"first":"list_things","ids":[1,2,3]}', calls: 4 });
    expect(outcome.made.map((m) => m.name)).toEqual(['list_things', 'get_thing', 'get_thing', 'get_thing']);
  });

  it('passes arguments to the server as plain JSON data', async () => {
    const outcome = await run('return await api.op({ a: [1, { b: null }], d: new Date(0), u: undefined });');
    expect(outcome.made[0]!.args).toEqual({ a: [1, { b: null }], d: '1970-01-01T00:00:00.000Z' });
  });

  it('returns nothing when the program returns nothing, and keeps console output', async () => {
    const outcome = await run("console.log('hello', { a: 1 });\nconsole.warn('careful');");
    expect(outcome).toMatchObject({ ok: true, logs: ['hello {"a":1}', 'warn: careful'] });
    expect(outcome.ok && outcome.json).toBeUndefined();
  });

  it('has only the clock it is given', async () => {
    const outcome = await run(
      'return [Date.now(), new Date().toISOString(), new Date(0).getTime(), typeof performance];',
    );
    expect(outcome).toMatchObject({ ok: true, json: '[1767323045000,"2026-01-02T03:04:05.000Z",0,"undefined"]' });
  });
});

describe('sandbox: errors a model can act on', () => {
  it('a syntax error points at its line', async () => {
    expect(errorOf(await run('const a = 1;\nconst b = ;\nreturn a;'))).toMatchObject({
      kind: 'syntax',
      name: 'SyntaxError',
      line: 2,
    });
  });

  it('a runtime error points at its line', async () => {
    expect(errorOf(await run('const a = {};\n\nreturn a.b.c;'))).toMatchObject({
      kind: 'runtime',
      name: 'TypeError',
      line: 3,
    });
  });

  it('a failed call throws an ApiError with status and body, which the program can catch', async () => {
    const answer = (): ApiAnswer => ({
      ok: false,
      message: 'HTTP 404 Not Found from GET /x',
      status: 404,
      body: '{"m":1}',
    });
    const caught = await run(
      'try { await api.get_x({}); } catch (e) { return [e instanceof ApiError, e.status, e.body, e.message]; }',
      { answer },
    );
    expect(caught).toMatchObject({ ok: true, json: '[true,404,"{\\"m\\":1}","HTTP 404 Not Found from GET /x"]' });
    const uncaught = errorOf(await run('const a = 1;\nawait api.get_x({});', { answer }));
    expect(uncaught).toMatchObject({ name: 'ApiError', status: 404, body: '{"m":1}', line: 2 });
  });

  it('a value that is not JSON is refused with a reason', async () => {
    const error = errorOf(await run('const a = {}; a.self = a; return a;'));
    expect(error.name).toBe('TypeError');
    expect(error.message).toContain('cannot be written as JSON');
  });

  it('a program that awaits forever ends at once without a result', async () => {
    const started = Date.now();
    const error = errorOf(await run('await new Promise(() => {});'));
    expect(error.message).toContain('never settles');
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('sandbox: what a program cannot reach', () => {
  it('has no network, timers, modules, process or host globals', async () => {
    const outcome = await run(
      'return [typeof fetch, typeof XMLHttpRequest, typeof WebSocket, typeof setTimeout, typeof require, typeof process, typeof Buffer, typeof globalThis.__run, Object.getOwnPropertyNames(globalThis).filter((n) => !/^[A-Z]/.test(n)).sort()];',
    );
    expect(outcome.ok).toBe(true);
    const [fetchType, xhr, ws, timers, requireType, processType, buffer, run_, globals] = JSON.parse(
      outcome.ok ? outcome.json! : '[]',
    ) as unknown[];
    expect([fetchType, xhr, ws, timers, requireType, processType, buffer, run_]).toEqual(Array(8).fill('undefined'));
    expect(globals).toEqual(
      expect.not.arrayContaining(['fetch', 'process', 'require', 'setTimeout', 'call', 'done', 'fail', 'log']),
    );
  });

  it('cannot load a module, statically or dynamically', async () => {
    expect(errorOf(await run("return await import('node:fs');")).message).toMatch(/could not load module/);
    expect(errorOf(await run("import fs from 'node:fs';\nreturn 1;")).kind).toBe('syntax');
  });

  it('cannot read files: there is no file system API to call', async () => {
    const error = errorOf(await run("const fs = require('fs');\nreturn fs.readFileSync('/etc/passwd', 'utf8');"));
    expect(error).toMatchObject({ name: 'ReferenceError', line: 1 });
  });

  it('prototype chains and Function constructors lead to the sandbox global, not the host', async () => {
    const outcome = await run(
      [
        "const g1 = (function () {}).constructor('return this')();",
        "const g2 = api.some_op.constructor('return this')();",
        "const g3 = ({}).constructor.constructor('return globalThis')();",
        'const p = Object.getPrototypeOf(api.some_op);',
        'return [g1 === globalThis, g2 === globalThis, g3 === globalThis, typeof g1.process, p === Function.prototype];',
      ].join('\n'),
    );
    expect(outcome).toMatchObject({ ok: true, json: '[true,true,true,"undefined",true]' });
  });

  it('cannot tamper with what the next program gets', async () => {
    await run('Object.prototype.polluted = 1; Array.prototype.map = null; globalThis.api = null;');
    const outcome = await run('return [({}).polluted, typeof [].map, typeof api];');
    expect(outcome).toMatchObject({ ok: true, json: '[null,"function","object"]' });
  });
});

describe('sandbox: limits', () => {
  it('stops an endless loop at the compute limit', async () => {
    const started = Date.now();
    const error = errorOf(await run('let i = 0;\nwhile (true) { i++; }', { limits: { maxComputeMs: 200 } }));
    expect(error).toMatchObject({ kind: 'timeout', name: 'TimeoutError' });
    expect(error.message).toContain('200 ms');
    expect(Date.now() - started).toBeLessThan(3_000);
    await expectStillServing();
  });

  it('counts calls answered without I/O as computing: a loop of them is stopped at the compute limit', async () => {
    const started = Date.now();
    const error = errorOf(
      await run('for (;;) { try { await api.nothing({}); } catch {} }', {
        limits: { maxComputeMs: 300, maxCalls: 1e9 },
        answer: () => ({ ok: false, message: 'There is no operation api.nothing' }),
      }),
    );
    expect(error.message).toContain('computed for more than 300 ms');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('does not count waiting on calls that went upstream', async () => {
    const outcome = await runInSandbox({
      code: 'for (let i = 0; i < 5; i++) await api.slow({ i });\nreturn 5;',
      limits: { ...LIMITS, maxComputeMs: 300 },
      now: 0,
      call: (_name, _args, _signal, sending) => {
        sending();
        return new Promise((resolve) => setTimeout(() => resolve({ ok: true, json: '1' }), 150));
      },
      wasm: await compileQuickJs(),
    });
    expect(outcome).toMatchObject({ ok: true, json: '5' });
  });

  it('stops a program at its wall time while it waits on the API, and aborts the call', async () => {
    let aborted = false;
    const outcome = await runInSandbox({
      code: 'await api.slow({});',
      limits: { ...LIMITS, timeoutMs: 300 },
      now: 0,
      wasm: await compileQuickJs(),
      call: (_name, _args, signal) =>
        new Promise<ApiAnswer>((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve({ ok: false, message: 'aborted' });
          });
        }),
    });
    expect(errorOf(outcome)).toMatchObject({ kind: 'timeout' });
    expect(errorOf(outcome).message).toContain('300 ms');
    expect(aborted).toBe(true);
    await expectStillServing();
  });

  it('stops unbounded allocation at the memory limit', async () => {
    const error = errorOf(
      await run("let s = 'x'.repeat(1024);\nconst keep = [];\nwhile (true) { keep.push(s + keep.length); }", {
        limits: { memoryBytes: 4 * 1024 * 1024 },
      }),
    );
    expect(['memory', 'timeout']).toContain(error.kind);
    const doubling = errorOf(
      await run('const a = [];\nfor (let n = 1; ; n *= 2) a.push(new Array(n).fill(n));', {
        limits: { memoryBytes: 4 * 1024 * 1024 },
      }),
    );
    expect(doubling.kind).toBe('memory');
    await expectStillServing();
  });

  it('stops deep recursion as an error, not a crash', async () => {
    const error = errorOf(await run('function down(n) { return down(n + 1) + 1; }\nreturn down(0);'));
    expect(error).toMatchObject({ name: 'InternalError', message: 'stack overflow' });
    await expectStillServing();
  });

  it('refuses calls past the call limit, inside the program', async () => {
    const outcome = await run('for (let i = 0; i < 10; i++) await api.op({ i });', { limits: { maxCalls: 3 } });
    expect(errorOf(outcome).message).toContain('more than 3 API calls');
    expect(outcome.made).toHaveLength(3);
  });

  it('refuses calls past 4 MiB of arguments in all, inside the program: no more than one message may carry', async () => {
    const outcome = await run(
      "const s = 'x'.repeat(1_000_000);\nconst out = [];\nfor (let i = 0; i < 5; i++) out.push(await api.op({ s }).then(() => 'sent', (e) => e.message));\nreturn out;",
    );
    expect(outcome.made).toHaveLength(4);
    expect(JSON.parse((outcome as { json: string }).json)).toEqual([
      ...Array(4).fill('sent'),
      "api.op would take the program's calls past 4194304 characters of arguments in all, what one message to the server may carry",
    ]);
  });

  it('stops when the client cancels', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const outcome = await run('await api.op({});', {
      signal: controller.signal,
      answer: () => new Promise((resolve) => setTimeout(() => resolve({ ok: true, json: '1' }), 2_000)),
    });
    expect(errorOf(outcome).kind).toBe('cancelled');
    await expectStillServing();
  });

  it('runs many programs one after another and side by side', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => run(`return (await api.op({ i: ${i} })).args.i;`)),
    );
    expect(outcomes.map((o) => (o.ok ? o.json : o.error.message))).toEqual(
      Array.from({ length: 20 }, (_, i) => String(i)),
    );
  });
});
