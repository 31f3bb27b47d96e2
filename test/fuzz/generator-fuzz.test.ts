/**
 * A generator that cannot be crashed: real API descriptions (fixtures, and the small specs of ../shared/specs),
 * mutated the way broken, converted and hostile specs are (spec-mutations.ts), each generated in full by the
 * built generator in a worker thread. Every case must end like the CLI's exit 0 (a complete project written,
 * nothing left beside it) or exit 1 (diagnostics, nothing written at all): never an exception (exit 70),
 * never a hang (the worker is ended past CASE_TIMEOUT_MS). A sample of the written projects must type-check.
 *
 * `npm test` runs FUZZ_CASES (default 100) with a fixed seed and type-checks FUZZ_TYPECHECKS (default 1) of the
 * projects; `npm run fuzz` runs 1,000 and type-checks 10 (see docs/development.md).
 * FUZZ_SEED replays another seed; the figures are printed at the end.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import SwaggerParser from '@apidevtools/swagger-parser';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/generated-project.js';
import { mutate, mutationsArb, type Mutation } from './spec-mutations.js';

const CASES = Number(process.env['FUZZ_CASES'] ?? 100);
const SEED = Number(process.env['FUZZ_SEED'] ?? 17);
const TYPECHECKS = Number(process.env['FUZZ_TYPECHECKS'] ?? 1);
/** A mutated petstore generates in well under a second; a minute is a hang even on two busy cores. */
const CASE_TIMEOUT_MS = 60_000;
/** Mutated specs larger than this are discarded (the largest real seed is under 50 kB; GitHub's is 13 MB). */
const MAX_SPEC_CHARS = 8_000_000;
/**
 * Documents with more top-level keys than this are discarded too. An OpenAPI document has about ten; a `wide`
 * mutation at the root (thousands of copies of `paths` holding $refs and cycles) makes swagger-parser's bundle crawl
 * quadratic: 93 s for one 323 kB case (seed 17, once the fixtures changed), all of it in json-schema-ref-parser's
 * `crawl`/`inventory$Ref`, the same on the code before. That is the library's floor, not the generator's.
 */
const MAX_ROOT_KEYS = 200;

const SHARED = resolve(REPO_ROOT, '..', 'shared', 'specs');
const SEED_FILES = [
  join(REPO_ROOT, 'fixtures/specs/petstore.yaml'),
  ...readdirSync(join(REPO_ROOT, 'fixtures/specs/features')).map((f) => join(REPO_ROOT, 'fixtures/specs/features', f)),
  join(SHARED, 'petstore-v2-classic/petstore.json'),
  join(SHARED, 'petstore-v3/openapi.yaml'),
  join(SHARED, 'petstore-v3.1/petstore.yaml'),
  join(SHARED, 'train-travel/openapi.yaml'),
].filter((f) => existsSync(f));

type Outcome =
  | { outcome: 'ok'; files: string[] }
  | { outcome: 'user-error'; diagnostics: number; message: string }
  | { outcome: 'crash'; message: string; stack: string }
  | { outcome: 'hang' };

/** One worker running the built generator; a hung or dead one is replaced. */
class GeneratorWorker {
  private worker = this.start();
  private pending: ((outcome: Outcome) => void) | undefined;
  private nextId = 0;

  private start(): Worker {
    const worker = new Worker(new URL('./generate-worker.mjs', import.meta.url));
    worker.on('message', (message: Outcome & { id: number }) => this.settle(message));
    worker.on('error', (error) =>
      this.settle({ outcome: 'crash', message: `worker died: ${error.message}`, stack: String(error.stack) }),
    );
    return worker;
  }

  private settle(outcome: Outcome): void {
    const pending = this.pending;
    this.pending = undefined;
    pending?.(outcome);
  }

  async run(spec: string, out: string, validate: boolean): Promise<Outcome> {
    const id = this.nextId++;
    const outcome = await new Promise<Outcome>((resolve) => {
      const timer = setTimeout(() => this.settle({ outcome: 'hang' }), CASE_TIMEOUT_MS);
      this.pending = (o) => {
        clearTimeout(timer);
        resolve(o);
      };
      this.worker.postMessage({ id, spec, out, validate });
    });
    if (outcome.outcome === 'hang' || outcome.outcome === 'crash') {
      await this.worker.terminate();
      this.worker = this.start();
    }
    return outcome;
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}

describe.skipIf(!existsSync(join(REPO_ROOT, 'dist/src/pipeline.js')))('the generator on mutated specs', () => {
  const seeds: Array<{ file: string; doc: unknown }> = [];
  const durations: number[] = [];
  const counts = { ok: 0, 'user-error': 0 };
  const samples: string[] = [];
  let root: string;
  let worker: GeneratorWorker;

  beforeAll(async () => {
    for (const file of SEED_FILES) seeds.push({ file, doc: await SwaggerParser.parse(file) });
    root = mkdtempSync(join(tmpdir(), 'otm-fuzz-'));
    worker = new GeneratorWorker();
  });

  afterAll(async () => {
    await worker?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it(
    `ends every one of ${CASES} generations with a project or diagnostics`,
    { timeout: CASES * CASE_TIMEOUT_MS },
    async () => {
      let caseNumber = 0;
      const started = performance.now();
      await fc.assert(
        fc.asyncProperty(fc.nat({ max: seeds.length - 1 }), mutationsArb, async (seedIndex, mutations) => {
          const dir = join(root, `case-${caseNumber++}`);
          mkdirSync(dir);
          const spec = join(dir, 'spec.json');
          const text = mutatedText(seeds[seedIndex]!.doc, mutations);
          // Nesting past what structuredClone and JSON.stringify can copy and write is no spec anyone can hand the
          // generator; nor is a copy of a deep node thousands of times over (tens of MB, minutes of plain parsing).
          fc.pre(text !== undefined && text.length <= MAX_SPEC_CHARS && rootKeys(text) <= MAX_ROOT_KEYS);
          writeFileSync(spec, text!);
          const out = join(dir, 'server');
          const t0 = performance.now();
          // Validation (swagger-parser) is slow; every third case runs it, the others go straight to generation.
          const result = await worker.run(spec, out, caseNumber % 3 === 0);
          durations.push(performance.now() - t0);
          const where = `${seeds[seedIndex]!.file} + ${JSON.stringify(mutations).slice(0, 500)}`;
          if (result.outcome === 'crash')
            throw new Error(`generator crashed on ${where}:\n${result.stack || result.message}`);
          if (result.outcome === 'hang')
            throw new Error(`generator did not finish within ${CASE_TIMEOUT_MS} ms on ${where}`);
          counts[result.outcome]++;
          if (result.outcome === 'ok') {
            expect(readdirSync(dir).sort(), where).toEqual(['server', 'spec.json']);
            expect(
              result.files.filter((f) => !existsSync(join(out, f))),
              where,
            ).toEqual([]);
            if (samples.length < TYPECHECKS && counts.ok % 10 === 1) samples.push(out);
            else rmSync(dir, { recursive: true, force: true });
          } else {
            expect(result.diagnostics, where).toBeGreaterThan(0);
            expect(readdirSync(dir), where).toEqual(['spec.json']);
            rmSync(dir, { recursive: true, force: true });
          }
        }),
        { numRuns: CASES, seed: SEED, endOnFailure: true },
      );
      const sorted = [...durations].sort((a, b) => a - b);
      const pct = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);
      console.log(
        `generator fuzz: ${CASES} cases (seed ${SEED}) in ${Math.round((performance.now() - started) / 1000)} s: ${counts.ok} projects, ${counts['user-error']} refused with diagnostics, 0 crashes, 0 hangs; per case p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms, max ${pct(1)} ms`,
      );
      expect(counts.ok).toBeGreaterThan(0);
    },
  );

  it('writes projects whose TypeScript type-checks', { timeout: 600_000 }, () => {
    expect(samples.length).toBeGreaterThan(0);
    for (const out of samples) {
      symlinkSync(join(REPO_ROOT, 'node_modules'), join(out, 'node_modules'), 'dir');
      execFileSync(
        process.execPath,
        [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(out, 'tsconfig.json'), '--noEmit'],
        { stdio: 'pipe' },
      );
    }
  });
});

function mutatedText(document: unknown, mutations: Mutation[]): string | undefined {
  try {
    return JSON.stringify(mutate(document as never, mutations)) ?? 'null';
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

function rootKeys(text: string): number {
  const doc = JSON.parse(text) as unknown;
  return typeof doc === 'object' && doc !== null ? Object.keys(doc).length : 0;
}
