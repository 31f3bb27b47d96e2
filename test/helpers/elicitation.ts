/**
 * Clients that ask the user (form elicitation), a scripted user, and a hand-written 2026-07-28 tools/call
 * for request states a real client never sends: the confirmation tests of tool calls and of code mode.
 */
import { Client } from '@modelcontextprotocol/client';
import { TEST_CLIENT_NAME } from './mcp-clients.js';

export type Answer = {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
};
export type Question = { message: string; requestedSchema: unknown };

/** A user giving these answers in turn (the last one from then on), and every question they were asked. */
export function user(...answers: Answer[]) {
  const asked: Question[] = [];
  return {
    asked,
    answer: (params: Question): Answer => (asked.push(params), answers[Math.min(asked.length, answers.length) - 1]!),
  };
}

/** The SDK v2 client (2026-07-28) declaring form elicitation, answering with `answer`. */
export function elicitingModernClient(answer: (params: Question) => Answer): Client {
  const client = new Client(
    { name: TEST_CLIENT_NAME, version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', (request) => answer(request.params as Question));
  return client;
}

export type RawAnswer = {
  result: Record<string, unknown> & { requestState?: string; isError?: boolean };
  error?: { code: number; message: string };
};

/** A 2026-07-28 tools/call written by hand (with `retry`: inputResponses and requestState), from an eliciting client. */
export async function rawToolCall(
  url: string,
  name: string,
  args: Record<string, unknown>,
  retry: Record<string, unknown> = {},
): Promise<RawAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        ...retry,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: TEST_CLIENT_NAME, version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
        },
      },
    }),
  });
  const body = await response.text();
  const json = body.startsWith('{') ? body : (/^data: (.*)$/m.exec(body)?.[1] ?? body);
  return JSON.parse(json) as RawAnswer;
}
