/**
 * The generated tests' data files (written by publish.ts, left unformatted by src/format): the mock's routes,
 * and the tools with the calls to make. A module of its own, so the formatter names them without
 * loading the emit stage.
 */
export const MOCK_ROUTES_FILE = 'test/mock-routes.json';
export const TOOL_CALLS_FILE = 'test/tool-calls.json';
