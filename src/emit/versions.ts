/** Versions the generated project depends on, pinned so every generation installs the same thing. */
export const GENERATED_DEPENDENCIES = {
  server: '2.4.0',
  node: '2.1.2',
  typescript: '5.9.3',
  /** Bundles the Node entries (templates/project/rolldown.config.mjs): the version vite (a test dependency) brings. */
  rolldown: '1.2.19',
  typesNode: '20.19.25',
  /** The operation search (templates/runtime/search/search.ts): the same versions the generator indexes with. */
  minisearch: '7.2.0',
  stemmer: '2.0.1',
  /** Argument validation (templates/runtime/server/argument-validator.ts): patterns in linear time, formats. */
  ajv: '8.20.0',
  ajvFormats: '3.0.1',
  re2js: '2.10.0',
  /** Code mode: the QuickJS sandbox (templates/runtime/code-mode/sandbox.ts) and type stripping (strip-types.ts). */
  quickjsCore: '0.32.0',
  quickjsVariant: '0.32.0',
  sucrase: '3.35.1',
  /** `npm run bundle` (a development dependency): validates the MCP Bundle's manifest and packs it. */
  mcpb: '2.1.2',
  /**
   * Not a dependency of the project: docs/deploy.md's Workers commands run it with `npx wrangler@<this>`, the version
   * the generator's own targets test runs the Worker on (its package.json devDependency).
   */
  wrangler: '4.85.0',
  /** The state shared by replicas (templates/runtime/state/redis-state.ts), loaded only when MCP_STATE_URL is set. */
  ioredis: '6.0.0',
} as const;
