/**
 * The deployment targets beside the Node bin and the Dockerfile: the web-standard server (src/web-server.ts)
 * and its entries for Cloudflare Workers (wrangler.toml, src/worker.ts), Deno, Bun and AWS Lambda, and the
 * Kubernetes manifests under deploy/. Each entry serves the one handler in src/runtime/transport/web-handler.ts.
 */
import type { EmittedFile } from '../plan.js';
import { GENERATED_DEPENDENCIES } from '../versions.js';
import type { PublishView } from './publish.js';
import { renderTemplate } from '../templates.js';

/** The names the deployment files and the README share. */
export interface DeploymentNames {
  /** The Worker's, the Kubernetes objects' and the container's name. */
  name: string;
  /** The image the Deployment runs: what `docker build -t` should tag. */
  image: string;
}

export interface DeployView {
  header: string;
  baseUrl: string;
  publish: PublishView;
  deployment: DeploymentNames;
  /** The generated tool mode: in code mode the entries also hand over the declarations and the sandbox. */
  toolMode: { name: string };
}

export function deploymentNames(packageName: string, version: string): DeploymentNames {
  const name = deploymentName(packageName.replace(/^@[^/]+\//, ''));
  return { name, image: `${name}:${version.replace(/[^A-Za-z0-9_.-]/g, '-')}` };
}

/** Rendered with the view; the `.hbs` suffix is dropped from each path. */
const TEMPLATES = [
  'src/web-server.ts.hbs',
  'src/worker.ts.hbs',
  'src/worker-data.js.hbs',
  'src/worker-data.d.ts.hbs',
  'src/deno.ts.hbs',
  'src/bun.ts.hbs',
  'src/lambda.ts.hbs',
  'wrangler.toml.hbs',
  'deploy/deployment.yaml.hbs',
  'deploy/service.yaml.hbs',
  'deploy/hpa.yaml.hbs',
  'deploy/secret.yaml.hbs',
] as const;

export function deployTargetFiles(view: DeployView): EmittedFile[] {
  const targetView = {
    ...view,
    workerName: view.deployment.name,
    image: view.deployment.image,
    credentialEnv: view.publish.credentialEnv,
    wranglerVersion: GENERATED_DEPENDENCIES.wrangler,
    withCodeMode: view.toolMode.name === 'code',
  };
  return TEMPLATES.map((template) => ({
    path: template.slice(0, -'.hbs'.length),
    contents: renderTemplate(template, targetView),
  }));
}

/**
 * A name Workers and Kubernetes both accept (a DNS label: lowercase letters, digits and dashes, at most 63,
 * starting with a letter and not ending with a dash).
 */
export function deploymentName(packageName: string): string {
  const label = packageName
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[^a-z]+/, '')
    .slice(0, 63)
    .replace(/-+$/, '');
  return label || 'mcp-server';
}
