/**
 * The retrieval benchmark's query sets (run by bench/retrieval.mjs) stay usable: the tuning set
 * (bench/retrieval/<api>.json, at least 40 per API) and the held-out set (bench/retrieval/held-out/<api>.json, at
 * least 25 per API, over APIs the tuning set does not have) and the dev set (bench/retrieval/dev/<api>.json, over
 * APIs in neither, with their specs in bench/retrieval/dev/specs): well-formed entries, no request asked twice, and
 * every expected operation one the API's description really has (checked against the spec in ../shared/specs,
 * when it is there, or the dev set's own copy). The harness itself runs one tuning API end to end, so a change of
 * the runtime's search wiring that it does not follow shows here; the held-out set is only checked here, never
 * searched (it is measured by `node bench/retrieval.mjs --set held-out`, see bench/retrieval/held-out/README.md).
 * Each set's requests as a host's model phrased them (bench/retrieval/phrased) cover exactly the set's requests.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/generated-project.js';

const SPECS_DIR = join(REPO_ROOT, '..', 'shared', 'specs');
/** The sets as bench/retrieval.mjs knows them (its SETS). */
const SETS = {
  tuning: {
    dir: join(REPO_ROOT, 'bench', 'retrieval'),
    apis: ['github', 'stripe', 'kubernetes', 'digitalocean', 'box'],
    minEntries: 40,
  },
  'held-out': {
    dir: join(REPO_ROOT, 'bench', 'retrieval', 'held-out'),
    apis: ['gitea', 'slack-web', 'discord', 'spotify', 'intellifi', 'just-eat'],
    minEntries: 25,
  },
  dev: {
    dir: join(REPO_ROOT, 'bench', 'retrieval', 'dev'),
    apis: ['trello', 'twilio', 'gmail', 'zoom', 'youtube'],
    minEntries: 40,
  },
} as const;
const SETS_DIR = SETS.tuning.dir;
/** The sets' requests as a host's model phrased them for search_operations (bench/retrieval/phrased/README.md). */
const PHRASED_DIR = join(SETS_DIR, 'phrased');
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const ENTRY_KEYS = new Set(['query', 'expected', 'expectedOps', 'note']);

interface QueryEntry {
  query: string;
  expected: string[];
  expectedOps: string[];
  note?: string;
}

function readSet(api: string, dir: string = SETS_DIR): QueryEntry[] {
  return JSON.parse(readFileSync(join(dir, `${api}.json`), 'utf8')) as QueryEntry[];
}

function mainFiles(): Map<string, string> {
  const [header, ...rows] = readFileSync(join(SPECS_DIR, 'MANIFEST.tsv'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split('\t'));
  const name = header!.indexOf('name');
  const main = header!.indexOf('main_file');
  return new Map(rows.map((cells) => [cells[name]!, cells[main]!]));
}

/** `METHOD /path` of every operation in the spec's main document (path items as written, refs not followed). */
async function specOperations(file: string): Promise<Set<string>> {
  const document = (await SwaggerParser.parse(file)) as { paths?: Record<string, Record<string, unknown>> };
  const operations = new Set<string>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of Object.keys(item))
      if (HTTP_METHODS.has(method)) operations.add(`${method.toUpperCase()} ${path}`);
  }
  return operations;
}

describe('retrieval benchmark query sets', () => {
  it('the held-out set asks only of APIs the tuning set does not have', () => {
    expect(SETS['held-out'].apis.filter((api) => (SETS.tuning.apis as readonly string[]).includes(api))).toEqual([]);
  });

  it('the dev set asks only of APIs neither other set has, whose specs are not in ../shared/specs', () => {
    const others: readonly string[] = [...SETS.tuning.apis, ...SETS['held-out'].apis];
    expect(SETS.dev.apis.filter((api) => others.includes(api))).toEqual([]);
    if (existsSync(join(SPECS_DIR, 'MANIFEST.tsv')))
      expect(SETS.dev.apis.filter((api) => mainFiles().has(api))).toEqual([]);
  });

  describe.each(Object.entries(SETS))('%s set', (setName, { dir, apis, minEntries }) => {
    it('has exactly one file per benchmarked API', () => {
      expect(
        readdirSync(dir)
          .filter((f) => f.endsWith('.json'))
          .sort(),
      ).toEqual(apis.map((api) => `${api}.json`).sort());
    });

    describe.each(apis)('%s', (api) => {
      const entries = readSet(api, dir);

      it(`holds at least ${minEntries} well-formed entries`, () => {
        expect(entries.length).toBeGreaterThanOrEqual(minEntries);
        for (const entry of entries) {
          const where = `${api}: ${JSON.stringify(entry.query)}`;
          expect(
            Object.keys(entry).filter((key) => !ENTRY_KEYS.has(key)),
            where,
          ).toEqual([]);
          expect(typeof entry.query === 'string' && entry.query.trim().length > 0, where).toBe(true);
          expect(entry.expectedOps.length, where).toBeGreaterThan(0);
          expect(new Set(entry.expectedOps).size, `${where} lists an operation twice`).toBe(entry.expectedOps.length);
          for (const op of entry.expectedOps)
            expect(op, where).toMatch(/^(GET|PUT|POST|DELETE|OPTIONS|HEAD|PATCH|TRACE) \/\S*$/);
          // `expected` names the same operations, in the same order, by their tool names when the set was written.
          expect(entry.expected.length, where).toBe(entry.expectedOps.length);
          for (const name of entry.expected) expect(typeof name === 'string' && name.length > 0, where).toBe(true);
          if (entry.note !== undefined) expect(typeof entry.note, where).toBe('string');
        }
      });

      it('asks no request twice', () => {
        const normalized = entries.map((entry) => entry.query.trim().toLowerCase().replace(/\s+/g, ' '));
        expect(normalized.filter((query, i) => normalized.indexOf(query) !== i)).toEqual([]);
      });

      it('has a query a host model wrote for every request, and none for a request the set does not have', () => {
        const phrased = JSON.parse(readFileSync(join(PHRASED_DIR, setName, `${api}.json`), 'utf8')) as Record<
          string,
          unknown
        >;
        expect(Object.keys(phrased).sort()).toEqual(entries.map((entry) => entry.query).sort());
        for (const [request, query] of Object.entries(phrased))
          expect(typeof query === 'string' && query.trim().length > 0, request).toBe(true);
      });

      const ownSpec = setName === 'dev' ? join(dir, 'specs', `${api}.json`) : undefined;
      it.skipIf(!ownSpec && !existsSync(join(SPECS_DIR, 'MANIFEST.tsv')))(
        'expects only operations the spec has',
        async () => {
          const operations = await specOperations(ownSpec ?? join(SPECS_DIR, mainFiles().get(api)!));
          const unknown = entries.flatMap((entry) =>
            entry.expectedOps.filter((op) => !operations.has(op)).map((op) => `${entry.query} → ${op}`),
          );
          expect(unknown).toEqual([]);
        },
      );
    });
  });

  it("the harness refuses to list the held-out set's misses", () => {
    expect(() =>
      execFileSync(process.execPath, [join(REPO_ROOT, 'bench', 'retrieval.mjs'), '--set', 'held-out', '--misses'], {
        stdio: 'pipe',
      }),
    ).toThrow(/--misses is refused for the held-out set/);
  });

  it.skipIf(!existsSync(join(SPECS_DIR, 'MANIFEST.tsv')))(
    'the harness asks every Box request and reports its figures',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'otm-retrieval-'));
      try {
        const out = join(dir, 'figures.json');
        execFileSync(process.execPath, [join(REPO_ROOT, 'bench', 'retrieval.mjs'), '--api', 'box', '--json', out], {
          stdio: 'pipe',
        });
        const [row] = JSON.parse(readFileSync(out, 'utf8')) as Array<{
          api: string;
          n: number;
          recall: Record<string, number>;
          mrr: number;
          p95: number;
          indexBytes: number;
          misses: unknown[];
        }>;
        expect(row!.api).toBe('box');
        expect(row!.n).toBe(readSet('box').length);
        expect(row!.recall['1']! <= row!.recall['5']! && row!.recall['5']! <= row!.recall['10']!).toBe(true);
        expect(row!.mrr).toBeGreaterThanOrEqual(row!.recall['1']!);
        expect(row!.mrr).toBeLessThanOrEqual(row!.recall['10']!);
        expect(row!.indexBytes).toBeGreaterThan(0);
        expect(row!.p95).toBeGreaterThan(0);
        expect(row!.misses.length).toBe(Math.round(row!.n * (1 - row!.recall['1']!)));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
