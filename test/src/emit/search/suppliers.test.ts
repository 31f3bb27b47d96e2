/** Which operations supply each required argument (src/emit/search/suppliers.ts), read from a normalized spec. */
import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../../../src/diagnostics/diagnostics.js';
import { argumentSources, MAX_SUPPLIERS } from '../../../../src/emit/search/suppliers.js';
import { normalizeSpec } from '../../../../src/normalize/index.js';
import type { ApiModel } from '../../../../src/ir/types.js';
import { toolOf } from '../../../helpers/tool-models.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ description: 'OK', content: { 'application/json': { schema } } });
const page = (item: string) => ({
  type: 'object',
  properties: { total: { type: 'integer' }, items: { type: 'array', items: ref(item) } },
});
const pathId = (name = 'id', description?: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string', ...(description ? { description } : {}) },
});

/** A small music API: search, albums, an album's tracks, a queue, playlists. */
const music = {
  openapi: '3.0.3',
  info: { title: 'Music', version: '1' },
  paths: {
    '/search': {
      get: {
        operationId: 'search',
        parameters: [
          { name: 'q', in: 'query', required: true, schema: { type: 'string' } },
          { name: 'type', in: 'query', required: true, schema: { type: 'string', enum: ['album', 'track'] } },
        ],
        responses: { '200': json({ type: 'object', properties: { tracks: page('Track'), albums: page('Album') } }) },
      },
    },
    '/albums/{id}': {
      get: { operationId: 'get-album', parameters: [pathId()], responses: { '200': json(ref('Album')) } },
    },
    '/albums/{id}/tracks': {
      get: { operationId: 'get-album-tracks', parameters: [pathId()], responses: { '200': json(page('Track')) } },
    },
    '/browse/new-releases': {
      get: {
        operationId: 'new-releases',
        responses: { '200': json({ type: 'object', properties: { albums: page('Album') } }) },
      },
    },
    '/artists': {
      get: { operationId: 'list-artists', responses: { '200': json({ type: 'array', items: ref('Artist') }) } },
    },
    '/me/player/queue': {
      post: {
        operationId: 'add-to-queue',
        parameters: [
          {
            name: 'uri',
            in: 'query',
            required: true,
            schema: { type: 'string', description: 'The uri of the item.', example: 'music:track:4iV5W9' },
          },
          { name: 'shuffle', in: 'query', required: true, schema: { type: 'boolean' } },
        ],
        responses: { '204': { description: 'Queued' } },
      },
    },
    '/playlists': {
      post: {
        operationId: 'create-playlist',
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
            },
          },
        },
        responses: {
          '201': {
            ...json(ref('Playlist')),
            links: {
              GetIt: { operationId: 'get-playlist', parameters: { 'path.playlist_id': '$response.body#/id' } },
            },
          },
        },
      },
    },
    '/me/playlists': {
      get: { operationId: 'my-playlists', responses: { '200': json(page('Playlist')) } },
    },
    '/playlists/{playlist_id}': {
      get: {
        operationId: 'get-playlist',
        parameters: [pathId('playlist_id')],
        responses: { '200': json(ref('Playlist')) },
      },
    },
  },
  components: {
    schemas: {
      Track: {
        type: 'object',
        properties: { id: { type: 'string' }, uri: { type: 'string' }, name: { type: 'string' } },
      },
      Album: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          uri: { type: 'string' },
          name: { type: 'string' },
          artists: { type: 'array', items: ref('Artist') },
        },
      },
      Artist: { type: 'object', properties: { id: { type: 'string' }, uri: { type: 'string' } } },
      Playlist: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } },
    },
  },
};

function sourcesOf(document: Record<string, unknown>): Record<string, Record<string, string[]> | undefined> {
  const api: ApiModel = normalizeSpec({ document, dialect: 'openapi-3.0' }, new Diagnostics());
  const tools = api.operations.map((op) => toolOf(op.method, op.path, op));
  const sources = argumentSources(api, tools);
  const named = (found: Record<string, number[]> | undefined) =>
    found && Object.fromEntries(Object.entries(found).map(([arg, docs]) => [arg, docs.map((d) => tools[d]!.name)]));
  return Object.fromEntries(tools.map((tool, i) => [tool.name, named(sources[i])]));
}

describe('argument suppliers', () => {
  const sources = sourcesOf(music);

  it('finds a field of the argument name in the items of nested lists, of the kind the argument describes', () => {
    // The example says a track: an album's uri or an artist's would not do, though both have one.
    expect(sources['add-to-queue']).toEqual({ uri: ['get-album-tracks', 'search'] });
  });

  it('gives `{id}` under /albums/ the ids of albums, not of what else has an id', () => {
    expect(sources['get-album-tracks']).toEqual({ id: ['new-releases', 'search'] });
  });

  it('leaves out a supplier that needs the argument itself', () => {
    // get-album needs the album id it would hand back.
    expect(sources['get-album-tracks']!['id']).not.toContain('get-album');
  });

  it('puts the spec’s links first', () => {
    expect(sources['get-playlist']).toEqual({ playlist_id: ['create-playlist', 'my-playlists'] });
  });

  it('gives no supplier to enums, booleans and values the caller chooses', () => {
    expect(sources['search']).toBeUndefined(); // q is the caller's words, type an enum
    expect(sources['create-playlist']).toBeUndefined(); // a new playlist's name, though playlists have names
    expect(sources['add-to-queue']).not.toHaveProperty('shuffle');
  });

  it('keeps at most three suppliers, GET lists with fewer required arguments first', () => {
    const paths: Record<string, unknown> = {
      '/widgets/{widget_id}': {
        delete: { operationId: 'delete-widget', parameters: [pathId('widget_id')], responses: { '204': {} } },
      },
    };
    const lists = ['/widgets', '/a/widgets', '/b/{b}/widgets', '/c/{c}/d/{d}/widgets'];
    lists.forEach((path, i) => {
      const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => pathId(m[1]));
      paths[path] = {
        get: {
          operationId: `list-${i}`,
          parameters: params,
          responses: { '200': json({ type: 'array', items: ref('Widget') }) },
        },
        post: { operationId: `create-${i}`, parameters: params, responses: { '201': json(ref('Widget')) } },
      };
    });
    const document = {
      openapi: '3.0.3',
      info: { title: 'Widgets', version: '1' },
      paths,
      components: { schemas: { Widget: { type: 'object', properties: { id: { type: 'integer' } } } } },
    };
    const found = sourcesOf(document)['delete-widget']!['widget_id']!;
    expect(found).toHaveLength(MAX_SUPPLIERS);
    expect(found).toEqual(['list-0', 'list-1', 'list-2']);
  });

  it('is deterministic', () => {
    expect(sourcesOf(music)).toEqual(sources);
  });
});
