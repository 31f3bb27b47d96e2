/**
 * The MCP Bundle's manifest.json for specs with every kind of credential: valid under the official schema of the
 * manifest version it names, asking for exactly the base URL and the credentials (secrets sensitive), and wiring
 * each answer into the server's environment.
 */
import { join } from 'node:path';
import { MANIFEST_SCHEMAS } from '@anthropic-ai/mcpb';
import { describe, expect, it } from 'vitest';
import { MCPB_MANIFEST_VERSION } from '../../../../src/emit/deploy/mcpb.js';
import { generate } from '../../../../src/pipeline.js';
import { REPO_ROOT } from '../../../helpers/generated-project.js';

interface Manifest {
  manifest_version: string;
  server: { mcp_config: { env: Record<string, string> } };
  user_config: Record<string, { required: boolean; sensitive?: boolean; default?: string }>;
}

async function manifestOf(spec: string): Promise<Manifest> {
  const result = await generate({ spec: join(REPO_ROOT, 'fixtures', 'specs', spec), validate: false, write: false });
  const file = result.files.find((f) => f.path === 'manifest.json');
  if (!file) throw new Error('no manifest.json');
  return JSON.parse(file.contents) as Manifest;
}

describe('manifest.json (MCP Bundle)', () => {
  it.each(['petstore.yaml', 'features/auth.yaml', 'features/no-servers.yaml', 'features/swagger2.json'])(
    '%s: valid under the official schema of its manifest version',
    async (spec) => {
      const manifest = await manifestOf(spec);
      expect(manifest.manifest_version).toBe(MCPB_MANIFEST_VERSION);
      const checked = MANIFEST_SCHEMAS[MCPB_MANIFEST_VERSION].safeParse(manifest);
      expect(checked.error?.issues ?? []).toEqual([]);
    },
  );

  it('asks for every credential, secrets sensitive, and passes each to its variable', async () => {
    const manifest = await manifestOf('features/auth.yaml');
    const asked = manifest.user_config;
    expect(asked['basic_auth_username']).toMatchObject({ required: false });
    expect(asked['basic_auth_username']).not.toHaveProperty('sensitive');
    expect(asked['basic_auth_password']).toMatchObject({ sensitive: true });
    expect(asked['machine_auth_client_id']).not.toHaveProperty('sensitive');
    expect(asked['machine_auth_client_secret']).toMatchObject({ sensitive: true });
    for (const [key, entry] of Object.entries(asked)) {
      expect(manifest.server.mcp_config.env[key.toUpperCase()]).toBe(`\${user_config.${key}}`);
      // An optional answer left empty must not reach the server as the literal placeholder.
      if (!entry.required) expect(entry.default, key).toBeTypeOf('string');
    }
  });

  it('requires the base URL where the spec names no server, and defaults it where it does', async () => {
    expect((await manifestOf('features/no-servers.yaml')).user_config['api_base_url']).toEqual(
      expect.objectContaining({ required: true }),
    );
    expect((await manifestOf('features/no-servers.yaml')).user_config['api_base_url']).not.toHaveProperty('default');
    expect((await manifestOf('petstore.yaml')).user_config['api_base_url']).toMatchObject({
      required: false,
      default: 'https://petstore3.swagger.io/api/v3',
    });
  });
});
