/** The stdio transport's answer tracking (templates/runtime/transport/stdio.ts): what the drain waits for. */
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { AnswerTracking } from '../../../templates/runtime/transport/stdio.js';

/** A transport that records what is sent and lets the test deliver client messages. */
function fakeWire(): Transport & {
  sent: JSONRPCMessage[];
  deliver: (message: JSONRPCMessage) => void;
  closed: boolean;
} {
  const wire = {
    sent: [] as JSONRPCMessage[],
    closed: false,
    onmessage: undefined as Transport['onmessage'],
    start: async () => undefined,
    send: async (message: JSONRPCMessage) => void wire.sent.push(message),
    close: async () => void (wire.closed = true),
    deliver: (message: JSONRPCMessage) => wire.onmessage?.(message),
  };
  return wire;
}

const call = (id: string | number, name = 'getItem'): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {} },
});
const answer = (id: string | number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { content: [] } });

async function tracked(): Promise<{
  tracking: AnswerTracking;
  wire: ReturnType<typeof fakeWire>;
  received: JSONRPCMessage[];
}> {
  const wire = fakeWire();
  const tracking = new AnswerTracking(wire);
  const received: JSONRPCMessage[] = [];
  tracking.onmessage = (message) => void received.push(message);
  await tracking.start();
  return { tracking, wire, received };
}

describe('AnswerTracking', () => {
  it('passes messages both ways unchanged', async () => {
    const { tracking, wire, received } = await tracked();
    wire.deliver(call(1));
    await tracking.send(answer(1));
    expect(received).toEqual([call(1)]);
    expect(wire.sent).toEqual([answer(1)]);
    await tracking.close();
    expect(wire.closed).toBe(true);
  });

  it('waits for a request read before the drain until its answer is written', async () => {
    const { tracking, wire } = await tracked();
    wire.deliver(call(1));
    const drained = tracking.unansweredAfter(5_000);
    setTimeout(() => void tracking.send(answer(1)), 50);
    const started = performance.now();
    expect(await drained).toEqual([]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(40);
  });

  it('names the requests still unanswered when the bound passes; ids 1 and "1" are different requests', async () => {
    const { tracking, wire } = await tracked();
    wire.deliver(call(1, 'slowTool'));
    wire.deliver(call('1'));
    wire.deliver({ jsonrpc: '2.0', id: 3, method: 'resources/list', params: {} });
    await tracking.send(answer('1'));
    expect(await tracking.unansweredAfter(20)).toEqual(['tools/call slowTool (id 1)', 'resources/list (id 3)']);
  });

  it('does not wait for a cancelled request, a subscription, a notification or an error answer', async () => {
    const { tracking, wire } = await tracked();
    wire.deliver(call(1));
    wire.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    wire.deliver({ jsonrpc: '2.0', id: 2, method: 'subscriptions/listen', params: {} });
    wire.deliver({ jsonrpc: '2.0', method: 'notifications/initialized' });
    wire.deliver(call(4));
    await tracking.send({ jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'bad' } });
    expect(await tracking.unansweredAfter(20)).toEqual([]);
  });

  it('counts a request as answered even when writing its answer failed (nothing more can be written)', async () => {
    const { tracking, wire } = await tracked();
    wire.send = async () => {
      throw new Error('EPIPE');
    };
    wire.deliver(call(1));
    await expect(tracking.send(answer(1))).rejects.toThrow('EPIPE');
    expect(await tracking.unansweredAfter(20)).toEqual([]);
  });
});
