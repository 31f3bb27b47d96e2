/** The scenarios committed under generated-examples/, shared by the update script and the golden test. */
export interface ExampleScenario {
  dir: string;
  spec: string;
  name: string;
}

export const EXAMPLES: ExampleScenario[] = [
  { dir: 'petstore', spec: 'fixtures/specs/petstore.yaml', name: 'petstore-mcp' },
  { dir: 'request-mapping', spec: 'fixtures/specs/features/requests.yaml', name: 'request-mapping-mcp' },
];
