/** Compact input schemas (src/schema/compact-schema.ts): deep structure summarized, loosened only, self-contained. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../../templates/runtime/contract/catalog.js';
import { compactInputSchema, COMPACT_NOTE, firstSentence } from '../../../src/schema/compact-schema.js';

const LONG = 'More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** A Kubernetes create: a pod, with metadata (a map of labels) and a spec of containers, all through $defs. */
const POD_CREATE: JsonSchema = {
  type: 'object',
  properties: {
    namespace: { type: 'string', description: `Object name and auth scope, such as for teams and projects. ${LONG}` },
    dryRun: { type: 'string' },
    body: { $ref: '#/$defs/Pod', description: 'The pod to create.' },
  },
  required: ['namespace', 'body'],
  $defs: {
    Pod: {
      type: 'object',
      description: `Pod is a collection of containers that can run on a host. ${LONG}`,
      properties: {
        apiVersion: { type: 'string', description: `APIVersion defines the versioned schema. ${LONG}` },
        kind: { type: 'string' },
        metadata: { $ref: '#/$defs/ObjectMeta', description: `Standard object's metadata. ${LONG}` },
        spec: { $ref: '#/$defs/PodSpec' },
      },
    },
    ObjectMeta: {
      type: 'object',
      properties: {
        name: { type: 'string', description: `Name must be unique within a namespace. ${LONG}` },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        ownerReferences: { type: 'array', items: { $ref: '#/$defs/OwnerReference' } },
      },
    },
    OwnerReference: {
      type: 'object',
      properties: { kind: { type: 'string' }, name: { type: 'string' }, uid: { type: 'string' } },
      required: ['kind', 'name', 'uid'],
    },
    PodSpec: {
      type: 'object',
      properties: {
        containers: { type: 'array', items: { $ref: '#/$defs/Container' }, description: `List of containers. ${LONG}` },
        restartPolicy: { type: 'string', enum: ['Always', 'OnFailure', 'Never'] },
        nodeSelector: { type: 'object', additionalProperties: { type: 'string' } },
      },
      required: ['containers'],
    },
    Container: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        image: { type: 'string', description: `Container image name. ${LONG}` },
        ports: {
          type: 'array',
          items: { type: 'object', properties: { containerPort: { type: 'integer' } }, required: ['containerPort'] },
        },
        env: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' }, value: { type: 'string' } } },
        },
      },
      required: ['name'],
    },
  },
};

const POD = {
  namespace: 'default',
  body: {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', labels: { app: 'web' } },
    spec: { containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 80 }] }] },
  },
};

function validator(schema: JsonSchema) {
  return new Ajv2020({ strict: false, allErrors: true }).compile(schema);
}

function find(schema: unknown, path: string[]): JsonSchema {
  let node = schema as JsonSchema;
  for (const key of path) node = (node[key] ?? {}) as JsonSchema;
  return node;
}

describe('compactInputSchema', () => {
  it('leaves a schema that fits its budget alone', () => {
    expect(compactInputSchema(POD_CREATE, 100_000)).toBeUndefined();
  });

  it('keeps the deepest structure that fits, self-contained, and summarizes below it', () => {
    const whole = JSON.stringify(POD_CREATE).length;
    const compact = compactInputSchema(POD_CREATE, Math.round(whole * 0.9))!;
    expect(JSON.stringify(compact)).not.toMatch(/\$ref|\$defs/);
    expect(JSON.stringify(compact).length).toBeLessThanOrEqual(whole * 0.9);
    // The arguments, and the body's own keys, stay.
    expect(Object.keys(find(compact, ['properties']))).toEqual(['namespace', 'dryRun', 'body']);
    expect(compact['required']).toEqual(['namespace', 'body']);
    expect(Object.keys(find(compact, ['properties', 'body', 'properties']))).toEqual([
      'apiVersion',
      'kind',
      'metadata',
      'spec',
    ]);
  });

  it('at the shallowest level, shows the arguments and their keys, each deeper value as its type and keys', () => {
    const compact = compactInputSchema(POD_CREATE, 200)!;
    const body = find(compact, ['properties', 'body']);
    expect(body['type']).toBe('object');
    const spec = find(body, ['properties', 'spec']);
    expect(spec).toEqual({
      type: 'object',
      description: `(object {containers*, restartPolicy, nodeSelector}; ${COMPACT_NOTE})`,
    });
    const metadata = find(body, ['properties', 'metadata']);
    expect(metadata['type']).toBe('object');
    expect(metadata['description']).toBe(
      `Standard object's metadata. (object {name, labels, ownerReferences}; ${COMPACT_NOTE})`,
    );
    expect(COMPACT_NOTE).toBe('full schema: describe_operation');
  });

  it("keeps the arguments' descriptions whole and cuts deeper ones to their first sentence", () => {
    const compact = compactInputSchema(POD_CREATE, 1100)!;
    expect(find(compact, ['properties', 'namespace', 'description'])).toBe(
      `Object name and auth scope, such as for teams and projects. ${LONG}`,
    );
    expect(find(compact, ['properties', 'body', 'properties', 'apiVersion', 'description'])).toBe(
      'APIVersion defines the versioned schema.',
    );
  });

  it("cuts the arguments' descriptions too when the shallowest level is still over", () => {
    const compact = compactInputSchema(POD_CREATE, 200)!;
    expect(find(compact, ['properties', 'namespace', 'description'])).toBe(
      'Object name and auth scope, such as for teams and projects.',
    );
  });

  it('only loosens: what the full schema takes, the compact one takes; a deep mistake is left to the full one', () => {
    for (const budget of [200, 800, 1500]) {
      const compact = compactInputSchema(POD_CREATE, budget)!;
      const full = validator(POD_CREATE);
      const listed = validator(compact);
      expect(full(POD)).toBe(true);
      expect(listed(POD)).toBe(true);
      const wrong = structuredClone(POD);
      (wrong.body.spec.containers[0] as Record<string, unknown>)['ports'] = [{ containerPort: 'eighty' }];
      expect(full(wrong)).toBe(false);
      if (budget === 200) expect(listed(wrong)).toBe(true);
    }
  });

  it('summarizes a recursive reference where it recurs', () => {
    const tree: JsonSchema = {
      type: 'object',
      properties: { body: { $ref: '#/$defs/Node' } },
      $defs: {
        Node: {
          type: 'object',
          properties: {
            label: { type: 'string', description: `The label. ${'Long. '.repeat(80)}` },
            children: { type: 'array', items: { $ref: '#/$defs/Node' } },
          },
        },
      },
    };
    const compact = compactInputSchema(tree, 300)!;
    const items = find(compact, ['properties', 'body', 'properties', 'children', 'items']);
    expect(items['description']).toBe(`(recursive; ${COMPACT_NOTE})`);
    expect(validator(compact)({ body: { label: 'a', children: [{ label: 'b', children: [] }] } })).toBe(true);
  });

  it("names the keys of an allOf's members, and keeps a nullable type", () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        body: {
          type: 'object',
          properties: {
            deep: {
              type: ['object', 'null'],
              allOf: [{ $ref: '#/$defs/A' }, { properties: { b: { type: 'string' } }, required: ['b'] }],
            },
          },
        },
        pad: { type: 'string', description: 'x'.repeat(200) },
      },
      $defs: { A: { type: 'object', properties: { a: { type: 'string' } } } },
    };
    const deep = find(compactInputSchema(schema, 250)!, ['properties', 'body', 'properties', 'deep']);
    expect(deep).toEqual({ type: ['object', 'null'], description: `(object {a, b*}; ${COMPACT_NOTE})` });
  });
});

describe('firstSentence', () => {
  it('ends at the first sentence, not at an abbreviation, and cuts a long one at a word', () => {
    expect(firstSentence('Name of the pod. Must be unique.', 100)).toBe('Name of the pod.');
    expect(firstSentence('Selects e.g. pods by label. More text.', 100)).toBe('Selects e.g. pods by label.');
    expect(firstSentence('one two three four five six', 15)).toBe('one two three…');
    expect(firstSentence('Line\n  broken', 100)).toBe('Line broken');
  });
});
