/**
 * The emitted deployment files: the Kubernetes manifests under deploy/ are valid against the Kubernetes API's
 * own schema (the release's swagger.json in ../shared/specs/kubernetes, with unknown fields refused as
 * kubectl's strict field validation does), and they fit together (probes on /health, the Secret the
 * Deployment reads, the Service and autoscaler pointing at the Deployment). wrangler.toml is run for real
 * by test/e2e/deploy/targets.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../../../src/pipeline.js';
import { deploymentName } from '../../../../src/emit/deploy/deploy-targets.js';
import { REPO_ROOT } from '../../../helpers/generated-project.js';

const KUBERNETES_SPEC = join(REPO_ROOT, '..', 'shared', 'specs', 'kubernetes', 'swagger.json');

type Json = Record<string, unknown>;

/** The fields of the manifests the cross-checks read. */
interface Probe {
  httpGet: { path: string; port: string };
}
interface DeploymentManifest {
  metadata: { name: string };
  spec: {
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string> };
      spec: {
        terminationGracePeriodSeconds: number;
        containers: Array<{
          ports: unknown[];
          readinessProbe: Probe;
          livenessProbe: Probe;
          envFrom: Array<{ secretRef: { name: string } }>;
          env: Array<{ name: string; value: string }>;
          lifecycle: { preStop: { sleep: { seconds: number } } };
        }>;
      };
    };
  };
}
interface SecretManifest {
  metadata: { name: string };
  stringData: Record<string, string>;
}
interface ServiceManifest {
  spec: { selector: Record<string, string>; ports: Array<{ targetPort: string }> };
}
interface HpaManifest {
  spec: { scaleTargetRef: unknown };
}
type Definitions = Record<string, Json>;

/** Objects with declared properties take no others: the API server's strict field validation. */
function strict(definitions: Definitions): Definitions {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (typeof node !== 'object' || node === null) return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node))
      out[key] = key === 'properties' ? mapValues(value as Json, visit) : visit(value);
    if (out['properties'] && out['additionalProperties'] === undefined) out['additionalProperties'] = false;
    return out;
  };
  return mapValues(definitions, (d) => visit(d) as Json);
}

function mapValues<T>(object: Record<string, T>, f: (value: T) => T): Record<string, T> {
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, f(v)]));
}

let definitions: Definitions;
let manifests: Record<string, Json>;
let ajv: Ajv;

function validatorFor(definition: string): ValidateFunction {
  return ajv.compile({ $ref: `#/definitions/${definition}`, definitions });
}

beforeAll(async () => {
  if (!existsSync(KUBERNETES_SPEC)) throw new Error(`${KUBERNETES_SPEC} is missing: this test needs ../shared/specs`);
  const spec = JSON.parse(readFileSync(KUBERNETES_SPEC, 'utf8')) as { definitions: Definitions };
  definitions = strict(spec.definitions);
  // Swagger 2.0 schemas are draft-04 in shape; int32, int-or-string and the like are not checked as formats.
  ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
  const result = await generate({
    spec: join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml'),
    out: '/nonexistent/petstore-mcp',
    validate: false,
    write: false,
  });
  manifests = Object.fromEntries(
    result.files.filter((f) => f.path.startsWith('deploy/')).map((f) => [f.path, parse(f.contents) as Json]),
  );
}, 60_000);

const KINDS: Array<[file: string, definition: string, apiVersion: string, kind: string]> = [
  ['deploy/deployment.yaml', 'io.k8s.api.apps.v1.Deployment', 'apps/v1', 'Deployment'],
  ['deploy/service.yaml', 'io.k8s.api.core.v1.Service', 'v1', 'Service'],
  ['deploy/hpa.yaml', 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler', 'autoscaling/v2', 'HorizontalPodAutoscaler'],
  ['deploy/secret.yaml', 'io.k8s.api.core.v1.Secret', 'v1', 'Secret'],
];

describe('Kubernetes manifests', () => {
  it('emits exactly the four manifests', () => {
    expect(Object.keys(manifests).sort()).toEqual(KINDS.map(([file]) => file).sort());
  });

  it.each(KINDS)('%s is a valid %s', (file, definition, apiVersion, kind) => {
    const manifest = manifests[file]!;
    expect([manifest['apiVersion'], manifest['kind']]).toEqual([apiVersion, kind]);
    const validate = validatorFor(definition);
    expect(validate(manifest) ? [] : validate.errors).toEqual([]);
  });

  it('the strict schema refuses a misspelt field (the check can fail)', () => {
    const validate = validatorFor('io.k8s.api.apps.v1.Deployment');
    const deployment = structuredClone(manifests['deploy/deployment.yaml']!) as Json & { spec: Json };
    deployment.spec['replica'] = 2;
    expect(validate(deployment)).toBe(false);
    expect(validate({ ...manifests['deploy/deployment.yaml'], spec: { replicas: 'two' } })).toBe(false);
  });

  it('probes /health on the container port, reads the Secret, and is what the Service and HPA point at', () => {
    const deployment = manifests['deploy/deployment.yaml'] as unknown as DeploymentManifest;
    const secret = manifests['deploy/secret.yaml'] as unknown as SecretManifest;
    const name = deployment.metadata.name as string;
    expect(name).toBe('petstore-mcp');
    const container = deployment.spec.template.spec.containers[0]!;
    expect(container.ports).toEqual([{ name: 'http', containerPort: 3000 }]);
    for (const probe of [container.readinessProbe, container.livenessProbe])
      expect(probe.httpGet).toEqual({ path: '/health', port: 'http' });
    expect(container.envFrom[0]!.secretRef.name).toBe(secret.metadata.name);
    expect(Object.keys(secret.stringData)).toEqual([
      'MCP_SIGNING_KEY',
      'MCP_STATE_URL',
      'PETSTORE_AUTH_TOKEN',
      'API_KEY',
    ]);
    const labels = deployment.spec.template.metadata.labels;
    expect(deployment.spec.selector.matchLabels).toEqual(labels);
    const service = manifests['deploy/service.yaml'] as unknown as ServiceManifest;
    expect(service.spec.selector).toEqual(labels);
    expect(service.spec.ports[0]!.targetPort).toBe('http');
    const hpa = manifests['deploy/hpa.yaml'] as unknown as HpaManifest;
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
    // Shorter than the drain it leaves room for: preStop sleep + MCP_SHUTDOWN_TIMEOUT_MS.
    const drainMs = Number(container.env.find((e) => e.name === 'MCP_SHUTDOWN_TIMEOUT_MS')!.value);
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(
      drainMs + container.lifecycle.preStop.sleep.seconds * 1000,
    );
  });
});

describe('Cloudflare Workers, as docs/deploy.md tells it', () => {
  const wrangler = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Json)[
    'devDependencies'
  ] as Record<string, string>;
  let files: Map<string, string>;
  beforeAll(async () => {
    const result = await generate({
      spec: join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml'),
      out: '/nonexistent/petstore-mcp',
      validate: false,
      write: false,
    });
    files = new Map(result.files.map((f) => [f.path, f.contents]));
  }, 60_000);

  it('runs it locally with npx, at the wrangler version the targets test runs, which the project does not depend on', () => {
    const page = files.get('docs/deploy.md')!;
    expect(page).toContain(`is not a dependency of this project: \`npx wrangler@${wrangler['wrangler']}\``);
    expect(page).toContain(`3. \`npx wrangler@${wrangler['wrangler']} dev\` serves the MCP endpoint`);
    expect(files.get('package.json')).not.toContain('wrangler');
    expect(files.get('wrangler.toml')).toContain(`npx wrangler@${wrangler['wrangler']} dev`);
  });

  it('puts the local Host names and the credentials in .dev.vars, which the project ignores', () => {
    const block = /Create `\.dev\.vars`[\s\S]*?```sh\n([\s\S]*?)```/.exec(files.get('docs/deploy.md')!)?.[1] ?? '';
    expect(block.split('\n').map((line) => line.trim())).toEqual([
      'MCP_ALLOWED_HOSTS="127.0.0.1,localhost"',
      'PETSTORE_AUTH_TOKEN="…"',
      'API_KEY="…"',
      '',
    ]);
    expect(files.get('.gitignore')).toContain('.dev.vars');
  });
});

describe('deploymentName', () => {
  it('makes a DNS label of any package name', () => {
    expect(deploymentName('petstore-mcp')).toBe('petstore-mcp');
    expect(deploymentName('My_API.Server')).toBe('my-api-server');
    expect(deploymentName('42-things')).toBe('things');
    expect(deploymentName('x'.repeat(70))).toHaveLength(63);
    expect(deploymentName('---')).toBe('mcp-server');
  });
});
