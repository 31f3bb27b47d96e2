/**
 * Dynamic mode against real APIs mocked by Prism: every operation of Spotify and Gitea is found by
 * search_operations from its summary, described by describe_operation, and called through call_operation with
 * required-only arguments sampled from the described schema. A recording proxy between the server and Prism
 * keeps Prism's verdict on each HTTP request. The same arguments go through the direct tools of a mode `all`
 * server of the same spec: both modes must send the same requests, and be Prism-valid equally often.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { Catalog, CatalogTool } from '../../templates/runtime/contract/catalog.js';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../helpers/generated-project.js';
import { connectModernStdio } from '../helpers/mcp-clients.js';
import {
  credentialEnv,
  startPrism,
  startRecordingProxy,
  type PrismMock,
  type ProxiedRequest,
  type RecordingProxy,
} from '../helpers/prism.js';
import { createArgSampler, type SampledArgs } from '../helpers/sample-args.js';

const SPECS_DIR = join(REPO_ROOT, '..', 'shared', 'specs');
/** Results asked of search_operations (its maximum); recall is reported at ranks 1, 10 (the default limit) and 50. */
const SEARCH_LIMIT = 50;
/** search_operations' default limit. */
const DEFAULT_SEARCH_LIMIT = 10;
const CALL_TIMEOUT_MS = 30_000;

interface SpecCase {
  name: string;
  file: string;
  operations: number;
  /** Floors measured on this spec (see the numbers printed by the test); a drop below them is a regression. */
  minFoundAtRank1: number;
  minPrismValid: number;
}

const SPECS: SpecCase[] = [
  // Measured: 96 of 97 first (1 second), all 97 Prism-valid in both modes.
  {
    name: 'spotify',
    file: join(SPECS_DIR, 'spotify', 'fixed-spotify-open-api.yml'),
    operations: 97,
    minFoundAtRank1: 96,
    minPrismValid: 97,
  },
  // Measured: 316 of 346 first, 343 in the top 3, all in the top 10 (32 operations share a summary with others);
  // all 346 Prism-valid in both modes. (319 first before issue 30's three simpler ranking rules, which raised
  // every set of lay requests, the held-out one included, and cost these 3 summary queries their first place.)
  {
    name: 'gitea',
    file: join(SPECS_DIR, 'gitea', 'gitea.io.json'),
    operations: 346,
    minFoundAtRank1: 316,
    minPrismValid: 346,
  },
];

type ToolCallResult = {
  content?: Array<{ type: string; text?: string }>;
  isError?: boolean;
  structuredContent?: unknown;
};

interface CallRecord {
  requests: ProxiedRequest[];
  isError: boolean | null;
  thrown?: string;
  text: string;
  /** At least one request reached Prism and none got a verdict (or went unanswered). */
  prismValid: boolean;
  verdicts: string[];
}

interface OperationRecord {
  tool: CatalogTool;
  query: string;
  /** 1-based rank of the operation in search_operations' results, null when not among the first SEARCH_LIMIT. */
  rank: number | null;
  /** The operations search_operations ranked above this one. */
  above: string[];
  /** How many operations share this query (duplicate summaries). */
  sameQuery: number;
  schemaMatchesDirectTool: boolean;
  sample: SampledArgs;
  dynamic: CallRecord;
  all: CallRecord;
}

for (const spec of SPECS) {
  describe.skipIf(!existsSync(spec.file))(`dynamic mode against Prism: ${spec.name}`, () => {
    let dynamicProject: BuiltProject | undefined;
    let allProject: BuiltProject | undefined;
    let prismStarting: Promise<PrismMock> | undefined;
    let dynamicProxy: RecordingProxy | undefined;
    let allProxy: RecordingProxy | undefined;
    let dynamicClient: Client | undefined;
    let allClient: Client | undefined;
    let catalog: Catalog;
    const records: OperationRecord[] = [];

    beforeAll(async () => {
      const started = Date.now();
      // Prism starts (a few seconds) while both projects generate and build.
      prismStarting = startPrism(spec.file);
      prismStarting.catch(() => undefined);
      dynamicProject = await generateAndBuild(spec.file, { toolMode: 'dynamic' });
      allProject = await generateAndBuild(spec.file, { toolMode: 'all' });
      const prism = await prismStarting;
      dynamicProxy = await startRecordingProxy(prism.port);
      allProxy = await startRecordingProxy(prism.port);
      catalog = JSON.parse(dynamicProject.result.files.find((f) => f.path === 'catalog.json')!.contents) as Catalog;
      const credentials = credentialEnv(catalog);
      const env = (proxy: RecordingProxy): Record<string, string> => ({
        API_BASE_URL: proxy.url,
        API_MAX_RETRIES: '0',
        // Every operation is called with sampled arguments, no user to ask: confirmation is not what this measures.
        MCP_CONFIRM: 'never',
        ...credentials,
      });
      dynamicClient = await connectModernStdio(dynamicProject.entry, env(dynamicProxy));
      allClient = await connectModernStdio(allProject.entry, env(allProxy));
      const directTools = new Map((await allClient.listTools()).tools.map((t) => [t.name, t]));

      const sampler = createArgSampler();
      const queries = new Map<string, number>();
      for (const tool of catalog.tools) queries.set(searchQuery(tool), (queries.get(searchQuery(tool)) ?? 0) + 1);
      for (const tool of catalog.tools) {
        const query = searchQuery(tool);
        const found = await callMeta(dynamicClient, 'search_operations', { query, limit: SEARCH_LIMIT });
        const results = (structured(found)['results'] ?? []) as Array<{ name: string }>;
        const index = results.findIndex((r) => r.name === tool.name);
        const described = structured(await callMeta(dynamicClient, 'describe_operation', { name: tool.name }));
        const inputSchema = described['inputSchema'] as Record<string, unknown>;
        const sample = sampler.sample(inputSchema);
        const [dynamicCall, allCall] = await Promise.all([
          recordCall(dynamicProxy, () =>
            dynamicClient!.callTool(
              { name: 'call_operation', arguments: { name: tool.name, arguments: sample.args } },
              { timeout: CALL_TIMEOUT_MS },
            ),
          ),
          recordCall(allProxy, () =>
            allClient!.callTool({ name: tool.name, arguments: sample.args }, { timeout: CALL_TIMEOUT_MS }),
          ),
        ]);
        records.push({
          tool,
          query,
          rank: index < 0 ? null : index + 1,
          above: results.slice(0, index < 0 ? results.length : index).map((r) => r.name),
          sameQuery: queries.get(query)!,
          schemaMatchesDirectTool:
            JSON.stringify(directTools.get(tool.name)?.inputSchema) === JSON.stringify(inputSchema),
          sample,
          dynamic: dynamicCall,
          all: allCall,
        });
      }
      console.log(report(spec, records, Date.now() - started));
    }, 300_000);

    afterAll(async () => {
      await dynamicClient?.close().catch(() => undefined);
      await allClient?.close().catch(() => undefined);
      await dynamicProxy?.close();
      await allProxy?.close();
      await (await prismStarting?.catch(() => undefined))?.stop();
      dynamicProject?.cleanup();
      allProject?.cleanup();
    }, 60_000);

    it('generates one operation per spec operation and lists only the meta-tools in dynamic mode', async () => {
      expect(catalog.tools).toHaveLength(spec.operations);
      expect(records).toHaveLength(spec.operations);
      const { tools } = await dynamicClient!.listTools();
      expect(tools.map((t) => t.name)).toEqual(['search_operations', 'describe_operation', 'call_operation']);
    });

    it('finds every operation by its summary among the results of the default limit, most of them first', () => {
      const notFound = records
        .filter((r) => r.rank === null || r.rank > DEFAULT_SEARCH_LIMIT)
        .map((r) => `${r.tool.name} ("${r.query}"): rank ${r.rank ?? `> ${SEARCH_LIMIT}`}`);
      expect(notFound).toEqual([]);
      expect(records.filter((r) => r.rank === 1).length).toBeGreaterThanOrEqual(spec.minFoundAtRank1);
    });

    it('describes each operation with the input schema of its direct tool, and samples arguments it accepts', () => {
      expect(records.filter((r) => !r.schemaMatchesDirectTool).map((r) => r.tool.name)).toEqual([]);
      expect(
        records.filter((r) => !r.sample.valid).map((r) => `${r.tool.name}: ${r.sample.errors.join('; ')}`),
      ).toEqual([]);
    });

    it('sends, through call_operation, exactly the requests the direct tool sends', () => {
      const differing = records
        .filter((r) => JSON.stringify(r.dynamic.requests.map(wire)) !== JSON.stringify(r.all.requests.map(wire)))
        .map(
          (r) =>
            `${r.tool.name}: dynamic ${JSON.stringify(r.dynamic.requests.map(wire))} vs all ${JSON.stringify(r.all.requests.map(wire))}`,
        );
      expect(differing).toEqual([]);
      expect(
        records
          .filter((r) => r.dynamic.requests.length === 0)
          .map((r) => `${r.tool.name}: ${r.dynamic.thrown ?? r.dynamic.text}`),
      ).toEqual([]);
    });

    it("sees Prism's verdict on a request Prism rejects (control)", async () => {
      const from = dynamicProxy!.log.length;
      const answer = await fetch(`${dynamicProxy!.url}/no/such/path/in/the/spec`);
      await answer.arrayBuffer();
      expect(dynamicProxy!.log.slice(from).map((r) => r.verdict?.type)).toEqual(['NO_PATH_MATCHED_ERROR']);
    });

    it('is Prism-valid as often as mode all, and at least as often as measured', () => {
      const dynamicValid = records.filter((r) => r.dynamic.prismValid).length;
      const allValid = records.filter((r) => r.all.prismValid).length;
      expect(records.filter((r) => r.dynamic.prismValid !== r.all.prismValid).map((r) => r.tool.name)).toEqual([]);
      expect(
        records
          .filter((r) => r.dynamic.thrown !== undefined || r.all.thrown !== undefined)
          .map((r) => `${r.tool.name}: dynamic ${r.dynamic.thrown} | all ${r.all.thrown}`),
      ).toEqual([]);
      expect(
        records
          .filter((r) => r.dynamic.isError !== r.all.isError)
          .map((r) => `${r.tool.name}: dynamic ${r.dynamic.text} | all ${r.all.text}`),
      ).toEqual([]);
      expect(dynamicValid).toBe(allValid);
      expect(dynamicValid).toBeGreaterThanOrEqual(spec.minPrismValid);
    });
  });
}

/** The operation's summary, else the first sentence of its description, else its name. */
function searchQuery(tool: CatalogTool): string {
  if (tool.title?.trim()) return tool.title.trim();
  const sentence = /^[^\n]*?[.!?](?=\s|$)/.exec(tool.description.trim())?.[0] ?? tool.description.trim().split('\n')[0];
  return sentence?.trim() || tool.name;
}

async function callMeta(client: Client, name: string, args: Record<string, unknown>): Promise<ToolCallResult> {
  const result = (await client.callTool({ name, arguments: args }, { timeout: CALL_TIMEOUT_MS })) as ToolCallResult;
  if (result.isError) throw new Error(`${name} ${JSON.stringify(args)} failed: ${text(result)}`);
  return result;
}

function structured(result: ToolCallResult): Record<string, unknown> {
  return (result.structuredContent ?? {}) as Record<string, unknown>;
}

function text(result: ToolCallResult): string {
  return (result.content ?? []).map((c) => c.text ?? '').join('\n');
}

async function recordCall(proxy: RecordingProxy, call: () => Promise<unknown>): Promise<CallRecord> {
  await proxy.idle();
  const from = proxy.log.length;
  let result: ToolCallResult | undefined;
  let thrown: string | undefined;
  try {
    result = (await call()) as ToolCallResult;
  } catch (error) {
    thrown = error instanceof Error ? error.message : String(error);
  }
  await proxy.idle();
  const requests = proxy.log.slice(from);
  const verdicts = requests.flatMap((r) =>
    r.verdict ? [`${r.verdict.status} ${r.verdict.type}: ${r.verdict.messages.join('; ')}`] : r.error ? [r.error] : [],
  );
  return {
    requests,
    isError: result ? result.isError === true : null,
    ...(thrown !== undefined ? { thrown } : {}),
    text: result ? text(result).slice(0, 300) : '',
    prismValid: requests.length > 0 && verdicts.length === 0 && requests.every((r) => r.status !== undefined),
    verdicts,
  };
}

/** What a request looks like on the wire, minus what depends on the connection and the (random) multipart boundary. */
function wire(request: ProxiedRequest): Record<string, unknown> {
  const boundary = /boundary=("?)([^";]+)\1/.exec(String(request.headers['content-type'] ?? ''))?.[2];
  const unbound = (s: string): string => (boundary ? s.split(boundary).join('<boundary>') : s);
  const headers = Object.fromEntries(
    Object.entries(request.headers)
      .filter(([k]) => !['host', 'connection', 'keep-alive'].includes(k))
      .map(([k, v]) => [k, typeof v === 'string' ? unbound(v) : v])
      .sort(([a], [b]) => (String(a) < String(b) ? -1 : 1)),
  );
  return { method: request.method, url: request.url, headers, body: unbound(request.body.toString('latin1')) };
}

function report(spec: SpecCase, records: OperationRecord[], ms: number): string {
  const count = (p: (r: OperationRecord) => boolean): number => records.filter(p).length;
  const lines = [
    `[${spec.name}] ${records.length} operations in ${(ms / 1000).toFixed(1)} s`,
    `  search: found at rank 1: ${count((r) => r.rank === 1)}, in top 3: ${count((r) => r.rank !== null && r.rank <= 3)}, in top 10: ${count((r) => r.rank !== null && r.rank <= 10)}, in top ${SEARCH_LIMIT}: ${count((r) => r.rank !== null)}; duplicate summaries: ${count((r) => r.sameQuery > 1)} operations`,
    `  sampler: ${count((r) => r.sample.valid)} valid (${['openapi-sampler', 'openapi-sampler+readOnly', 'json-schema-faker'].map((s) => `${s} ${count((r) => r.sample.valid && r.sample.source === s)}`).join(', ')})`,
    `  Prism-valid: dynamic ${count((r) => r.dynamic.prismValid)}, all ${count((r) => r.all.prismValid)}; tool errors: dynamic ${count((r) => r.dynamic.isError === true)}, all ${count((r) => r.all.isError === true)}; thrown: dynamic ${count((r) => r.dynamic.thrown !== undefined)}, all ${count((r) => r.all.thrown !== undefined)}`,
  ];
  for (const r of records.filter((x) => x.rank !== 1)) {
    lines.push(
      `  rank ${r.rank ?? `>${SEARCH_LIMIT}`}: ${r.tool.name} ("${r.query}"${r.sameQuery > 1 ? `, summary shared by ${r.sameQuery}` : ''}) below ${r.above.slice(0, 5).join(', ')}`,
    );
  }
  for (const r of records.filter((x) => !x.dynamic.prismValid || !x.all.prismValid)) {
    lines.push(
      `  not Prism-valid: ${r.tool.name} ${r.tool.request.method} ${r.tool.request.path} args ${JSON.stringify(r.sample.args).slice(0, 200)}`,
    );
    lines.push(
      `    dynamic: ${r.dynamic.verdicts.join(' | ') || (r.dynamic.requests.length ? '' : `no request (${r.dynamic.thrown ?? r.dynamic.text})`)}`,
    );
    lines.push(
      `    all:     ${r.all.verdicts.join(' | ') || (r.all.requests.length ? '' : `no request (${r.all.thrown ?? r.all.text})`)}`,
    );
  }
  for (const r of records.filter((x) => x.dynamic.thrown !== undefined || x.all.thrown !== undefined)) {
    lines.push(`  thrown: ${r.tool.name}: dynamic ${r.dynamic.thrown ?? '-'} | all ${r.all.thrown ?? '-'}`);
  }
  return lines.join('\n');
}
