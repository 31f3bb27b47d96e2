/**
 * Links to the whole body of a GET response that did not fit the result (over API_MAX_RESPONSE_BYTES) or is a
 * binary download: the result carries what fits and a `resource_link` the client reads in pages.
 *
 * The link is the request to replay, signed: `response://upstream/<token>?page=N`, where the token holds the
 * tool and its arguments and an expiry, under HMAC-SHA256 with the server's signing key (MCP_SIGNING_KEY). A
 * read replays the GET through the tool (credentials, hooks, redaction as for a call) and returns page N of
 * the body. So any replica with the same key can serve any page, and the server keeps nothing between
 * requests; an in-process cache of bodies would break behind a load balancer and hold megabytes per call. The
 * price: each page is fetched again from the API (reading page N reads the body up to its end), and a body
 * that changed between reads gives pages of different versions. Only GET is replayed: repeating any other
 * method could repeat its effect, so those bodies stay truncated.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ResourceNotFoundError } from '@modelcontextprotocol/server';
import type { CatalogTool } from '../contract/catalog.js';
import type { ExtensionContext, ExtraResourceTemplate } from '../extend/extensions.js';
import type { BodyCut, ToolContent, ToolResult } from '../upstream/response.js';

/** Pages are 1 MiB of the body: a 20 MB download is 20 reads. */
export const LINK_PAGE_BYTES = 1_048_576;
/** A link replays the request, so it stays valid for as long as a conversation plausibly refers back to it. */
const LINK_TTL_SECONDS = 3_600;
const LINK_PREFIX = 'response://upstream/';
export const LINK_TEMPLATE = `${LINK_PREFIX}{token}{?page}`;
/** Keeps link tokens apart from every other HMAC made with the same key. */
const DOMAIN = 'openapi-to-mcp.response-link.v1:';
const PAGE_META_KEY = 'openapi-to-mcp/page';

interface LinkPayload {
  t: string;
  a: Record<string, unknown>;
  /** Expiry, in Unix seconds. */
  e: number;
}

export interface ResponseLinker {
  /** The result with a link to the whole body instead of what was cut (GET only; others as they are). */
  linked(tool: CatalogTool, args: Record<string, unknown>, result: ToolResult): ToolResult;
  /** The resource template the links are read through. */
  template(readPage: PageReader): ExtraResourceTemplate;
}

/** Replays a call and reads one page of its body (call-tool.ts with a page). */
export type PageReader = (
  tool: string,
  args: Record<string, unknown>,
  page: { index: number; size: number },
  ctx: ExtensionContext,
) => Promise<ToolResult>;

export function createResponseLinker(key: Uint8Array | string, now: () => number = Date.now): ResponseLinker {
  const sign = (body: string) =>
    createHmac('sha256', key)
      .update(DOMAIN + body)
      .digest('base64url');
  const mint = (payload: LinkPayload) => {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${sign(body)}`;
  };
  const open = (token: string): LinkPayload | undefined => {
    const [body, mac, extra] = token.split('.');
    if (!body || !mac || extra !== undefined) return undefined;
    const expected = Buffer.from(sign(body));
    const given = Buffer.from(mac);
    if (given.byteLength !== expected.byteLength || !timingSafeEqual(given, expected)) return undefined;
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as LinkPayload;
    return payload.e * 1000 >= now() ? payload : undefined;
  };
  return {
    linked: (tool, args, result) => {
      const { cut, ...rest } = result;
      if (!cut || tool.request.method.toUpperCase() !== 'GET') return rest;
      const uri = `${LINK_PREFIX}${mint({ t: tool.name, a: args, e: Math.floor(now() / 1000) + LINK_TTL_SECONDS })}`;
      const size = cut.totalBytes === undefined ? 'the whole body' : `all ${cut.totalBytes} bytes`;
      const link: ToolContent = {
        type: 'resource_link',
        uri,
        name: `${tool.name} response`,
        mimeType: cut.mimeType,
        description: `The ${cut.mimeType} body of this ${tool.request.method.toUpperCase()} ${tool.request.path}, ${size}, in pages of ${LINK_PAGE_BYTES} bytes: read ${uri} (page 0), then ?page=1, 2, … while a page's _meta["${PAGE_META_KEY}"].next names one. Valid for ${LINK_TTL_SECONDS / 60} minutes; each read asks the API again.`,
        ...(cut.totalBytes === undefined ? {} : { size: cut.totalBytes }),
      };
      // A binary body helps no model as base64: the link stands in for it.
      const shown = cut.binary
        ? [{ type: 'text' as const, text: `${describeBinary(cut)}: read it from the resource link.` }]
        : rest.content;
      return { ...rest, content: [...shown, link] };
    },
    template: (readPage) => ({
      uriTemplate: LINK_TEMPLATE,
      name: 'upstream response',
      description: 'The whole body of a GET response that a tool result linked to, one page per read (?page=N).',
      read: async (uri, variables, ctx) => {
        const token = String(variables['token'] ?? '');
        const payload = open(token);
        if (!payload) throw new ResourceNotFoundError(uri, `${uri}: not a link of this server, or expired`);
        const index = pageIndex(variables['page']);
        if (index === undefined) throw new ResourceNotFoundError(uri, `${uri}: page must be 0, 1, 2, …`);
        const result = await readPage(payload.t, payload.a, { index, size: LINK_PAGE_BYTES }, ctx);
        const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
        if (result.isError || !result.page) throw new ResourceNotFoundError(uri, `Reading ${uri}: ${text}`);
        const { page } = result;
        if (index > 0 && page.bytes === 0 && !page.more)
          throw new ResourceNotFoundError(uri, `${uri}: the body has fewer than ${index + 1} pages`);
        const meta = {
          [PAGE_META_KEY]: {
            index,
            offset: page.offset,
            bytes: page.bytes,
            ...(page.totalBytes === undefined ? {} : { totalBytes: page.totalBytes }),
            ...(page.more ? { next: `${LINK_PREFIX}${token}?page=${index + 1}` } : {}),
          },
        };
        const item = result.content[0]!;
        return [
          item.type === 'resource'
            ? { uri, mimeType: item.resource.mimeType, blob: item.resource.blob, _meta: meta }
            : { uri, mimeType: page.mimeType, text, _meta: meta },
        ];
      },
    }),
  };
}

function describeBinary(cut: BodyCut): string {
  return cut.totalBytes === undefined ? `A ${cut.mimeType} body` : `${cut.totalBytes} bytes of ${cut.mimeType}`;
}

function pageIndex(value: string | string[] | undefined): number | undefined {
  if (value === undefined) return 0;
  const text = Array.isArray(value) ? value[0]! : value;
  return /^\d{1,6}$/.test(text) ? Number(text) : undefined;
}
