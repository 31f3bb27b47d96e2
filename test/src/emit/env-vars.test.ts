/**
 * The environment is declared once (templates/runtime/contract/environment.ts): the runtime reads nothing else, and the
 * generated project's environment table (docs/environment.md), .env.example and server.json list the same
 * variables with the same words.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate, type GenerateResult } from '../../../src/pipeline.js';
import { readConfig } from '../../../templates/runtime/server/config.js';
import { ENV, readEnv, type EnvVariable } from '../../../templates/runtime/contract/environment.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';

const RUNTIME = join(REPO_ROOT, 'templates', 'runtime');
/** The generated project's page with the environment table. */
const ENV_PAGE = 'docs/environment.md';

async function generated(spec: string, toolMode?: 'code'): Promise<(path: string) => string> {
  const result: GenerateResult = await generate({
    spec: join(REPO_ROOT, 'fixtures', 'specs', spec),
    out: '/nonexistent/otm-env-vars',
    validate: false,
    write: false,
    ...(toolMode ? { toolMode } : {}),
  });
  return (path) => result.files.find((f) => f.path === path)!.contents;
}

/** `| \`NAME\` | yes/no | meaning |` rows of the environment table (docs/environment.md, linked from the README). */
function tableRows(page: string): Array<{ name: string; required: boolean; description: string }> {
  return [...page.matchAll(/^\| `([A-Z0-9_]+)` \| (yes|no) \| (.*) \|$/gm)].map((m) => ({
    name: m[1]!,
    required: m[2] === 'yes',
    description: m[3]!,
  }));
}

/** `# description` then `NAME=example` (commented out unless required) entries of .env.example. */
function envExampleEntries(text: string): Array<{ name: string; required: boolean; description: string }> {
  return [...text.matchAll(/^# (.*)\n(# )?([A-Z0-9_]+)=.*$/gm)].map((m) => ({
    name: m[3]!,
    required: m[2] === undefined,
    description: m[1]!,
  }));
}

describe.each(['petstore.yaml', 'features/auth.yaml', 'features/no-servers.yaml'])('%s', (spec) => {
  it('lists the same variables, in the same order and words, in docs/environment.md, .env.example and server.json', async () => {
    const file = await generated(spec);
    const rows = tableRows(file(ENV_PAGE));
    expect(envExampleEntries(file('.env.example'))).toEqual(rows);
    const declaredAll: Record<string, EnvVariable<unknown>> = ENV;
    const table = Object.keys(ENV).filter((name) => !declaredAll[name]!.codeMode);
    // The runtime's table in its order (code mode's own not in a project without it), the credentials after API_BASE_URL.
    expect(rows.map((r) => r.name).filter((name) => table.includes(name))).toEqual(table);
    const registry = (
      JSON.parse(file('server.json')) as {
        packages: Array<{ environmentVariables: Array<{ name: string; description: string; isRequired: boolean }> }>;
      }
    ).packages[0]!.environmentVariables;
    // The stdio package's registry entry: every variable but the HTTP transport's and the endpoint's own.
    const declared: Record<string, EnvVariable<unknown>> = ENV;
    const stdio = rows.filter((r) => !declared[r.name]?.http && !declared[r.name]?.endpoint);
    expect(stdio.length).toBeLessThan(rows.length);
    expect(registry.map(({ name, description, isRequired }) => ({ name, required: isRequired, description }))).toEqual(
      stdio,
    );
  });
});

it('says each default the table declares, in docs/environment.md', async () => {
  const rows = tableRows((await generated('petstore.yaml'))(ENV_PAGE));
  const said = (name: string) => rows.find((r) => r.name === name)!.description;
  expect(said('API_TIMEOUT_MS')).toContain(`(default ${ENV.API_TIMEOUT_MS.default})`);
  expect(said('MCP_TOOLS_PAGE_SIZE')).toContain(`(default ${ENV.MCP_TOOLS_PAGE_SIZE.default})`);
  expect(said('LOG_LEVEL')).toContain('(default info)');
  expect(said('MCP_ALLOWED_HOSTS')).toContain('(default: localhost names only)');
  expect(said('API_BASE_URL')).toBe('Upstream base URL (default https://petstore3.swagger.io/api/v3).');
  expect(said('MCP_TOOL_MODE')).toContain('(default all)');
});

it("documents code mode's variables only in a project generated in code mode, which has it", async () => {
  const declared: Record<string, EnvVariable<unknown>> = ENV;
  const codeModeOnly = Object.keys(ENV).filter((name) => declared[name]!.codeMode);
  expect(codeModeOnly).toHaveLength(7);
  const names = (page: string) => tableRows(page).map((r) => r.name);
  const [inCode, inAll] = await Promise.all([generated('petstore.yaml', 'code'), generated('petstore.yaml')]);
  expect(names(inCode(ENV_PAGE))).toEqual(expect.arrayContaining(codeModeOnly));
  expect(names(inAll(ENV_PAGE)).filter((name) => name.startsWith('MCP_CODE_'))).toEqual([]);
  expect(inAll('.env.example')).not.toContain('MCP_CODE_');
  expect(inAll('server.json')).not.toContain('MCP_CODE_');
  const toolMode = (file: (path: string) => string) =>
    tableRows(file(ENV_PAGE)).find((r) => r.name === 'MCP_TOOL_MODE');
  expect(toolMode(inAll)?.description).toMatch(
    /^all, dynamic or hybrid: .*code needs a project generated with --tool-mode code/,
  );
  expect(toolMode(inCode)?.description).toMatch(/^all, dynamic, hybrid or code: /);
});

it('requires API_BASE_URL exactly when the spec names no usable server', async () => {
  expect(
    tableRows((await generated('features/no-servers.yaml'))(ENV_PAGE)).find((r) => r.name === 'API_BASE_URL'),
  ).toEqual({
    name: 'API_BASE_URL',
    required: true,
    description: 'Upstream base URL. Required: the spec names no usable server.',
  });
});

describe('the runtime', () => {
  it('reads its environment only through the table: no variable name is looked up anywhere else', () => {
    const lookups = readdirSync(RUNTIME, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && f !== join('contract', 'environment.ts'))
      .flatMap((f) =>
        [
          ...readFileSync(join(RUNTIME, f), 'utf8').matchAll(
            /\benv\[\s*['"`]([A-Z0-9_]+)['"`]\s*\]|process\.env\.([A-Z0-9_]+)/g,
          ),
        ].map((m) => `${f}: ${m[0]}`),
      );
    expect(lookups).toEqual([]);
  });

  it('falls back to the declared default for an absent or unusable value', () => {
    expect(readConfig({})).toMatchObject({
      timeoutMs: ENV.API_TIMEOUT_MS.default,
      maxResponseBytes: ENV.API_MAX_RESPONSE_BYTES.default,
      maxRetries: ENV.API_MAX_RETRIES.default,
      logLevel: ENV.LOG_LEVEL.default,
      http: {
        host: ENV.HOST.default,
        port: ENV.PORT.default,
        allowedHosts: [],
        shutdownTimeoutMs: ENV.MCP_SHUTDOWN_TIMEOUT_MS.default,
      },
    });
    const unusable = {
      API_TIMEOUT_MS: '-5',
      PORT: 'eighty',
      LOG_LEVEL: 'loud',
      HOST: '   ',
      MCP_TOOLS_PAGE_SIZE: '1.5',
      MCP_TOOL_MODE: 'some',
    };
    expect(readConfig(unusable)).toMatchObject({
      timeoutMs: 30_000,
      logLevel: 'info',
      http: { port: 3000, host: '127.0.0.1' },
    });
    expect(readEnv(unusable, 'MCP_TOOLS_PAGE_SIZE')).toBe(500);
    expect(readEnv(unusable, 'MCP_TOOL_MODE')).toBeUndefined();
  });

  it('parses what the table says', () => {
    const env = {
      API_MAX_RETRIES: '0',
      MCP_ALLOWED_HOSTS: ' a.example , b.example,',
      MCP_OAUTH_SCOPES: 'read write,admin',
      MCP_TOOL_MODE: 'hybrid',
      MCP_OAUTH_CLIENT_SECRET: ' keep spaces ',
    };
    expect(readEnv(env, 'API_MAX_RETRIES')).toBe(0);
    expect(readEnv(env, 'MCP_ALLOWED_HOSTS')).toEqual(['a.example', 'b.example']);
    expect(readEnv(env, 'MCP_OAUTH_SCOPES')).toEqual(['read', 'write', 'admin']);
    expect(readEnv(env, 'MCP_TOOL_MODE')).toBe('hybrid');
    expect(readEnv(env, 'MCP_OAUTH_CLIENT_SECRET')).toBe(' keep spaces ');
  });
});
