/** What a success response returns that a later call can use (src/normalize/returned-objects.ts). */
import { describe, expect, it } from 'vitest';
import { responseLinks, returnedObjects } from '../../../src/normalize/returned-objects.js';

const schemas: Record<string, Record<string, unknown>> = {
  Track: {
    type: 'object',
    properties: {
      uri: { type: 'string' },
      album: { $ref: '#/schemas/Album' },
      secret: { type: 'string', writeOnly: true },
    },
  },
  Album: {
    type: 'object',
    properties: { id: { type: 'string' }, artists: { type: 'array', items: { $ref: '#/schemas/Artist' } } },
  },
  Artist: { type: 'object', properties: { id: { type: 'string' } } },
  Customer: { type: 'object', properties: { id: { type: 'string' } } },
};
const resolve = (s: unknown) => {
  const node = s as Record<string, unknown> | undefined;
  const ref = node?.['$ref'];
  return typeof ref === 'string' ? schemas[ref.slice('#/schemas/'.length)] : node;
};

describe('returned objects', () => {
  it('reads the items of a wrapped list two steps down, named by their schema and the list that holds them', () => {
    const search = {
      type: 'object',
      properties: {
        tracks: {
          type: 'object',
          properties: { total: { type: 'integer' }, items: { type: 'array', items: { $ref: '#/schemas/Track' } } },
        },
      },
    };
    expect(returnedObjects(search, resolve)).toEqual([
      { entity: ['Track', 'items', 'tracks'], fields: { uri: 'string' }, depth: 2, listed: true },
    ]);
  });

  it('records the response itself and its lists, not the single objects inside it', () => {
    // A track's album is part of the track and not recorded; the list of artists in it, two steps down, is.
    expect(returnedObjects({ $ref: '#/schemas/Track' }, resolve)).toEqual([
      { entity: ['Track'], fields: { uri: 'string' }, depth: 0, listed: false },
      { entity: ['Artist', 'artists'], fields: { id: 'string' }, depth: 2, listed: true },
    ]);
    expect(returnedObjects({ $ref: '#/schemas/Album' }, resolve)).toEqual([
      { entity: ['Album'], fields: { id: 'string' }, depth: 0, listed: false },
      { entity: ['Artist', 'artists'], fields: { id: 'string' }, depth: 1, listed: true },
    ]);
  });

  it('takes the scalar branch of an expandable field, and leaves out a field that is only ever an object', () => {
    const charge = {
      type: 'object',
      properties: {
        customer: { anyOf: [{ type: 'string' }, { $ref: '#/schemas/Customer' }] },
        source: { anyOf: [{ $ref: '#/schemas/Customer' }] },
      },
    };
    expect(returnedObjects(charge, resolve)[0]!.fields).toEqual({ customer: 'string' });
  });

  it('reads links by operationId or operationRef, without the location prefix of a parameter', () => {
    const success = [
      {
        code: '201',
        response: {
          links: {
            a: { operationId: 'getPet', parameters: { 'path.petId': '$response.body#/id' } },
            b: { operationRef: '#/paths/~1pets~1{petId}/get', parameters: { petId: '$response.body#/id' } },
            c: { operationId: 'noParameters' },
          },
        },
      },
    ];
    expect(responseLinks(success, (n) => n as Record<string, unknown>)).toEqual([
      { operationId: 'getPet', parameters: ['petId'] },
      { operationRef: '#/paths/~1pets~1{petId}/get', parameters: ['petId'] },
    ]);
  });
});
