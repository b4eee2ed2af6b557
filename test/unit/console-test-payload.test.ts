import { describe, expect, it } from 'vitest';
import { testPayload } from '../../console/src/views/workflows/test-payload.ts';

// The console's "Trigger a test event" form starts from this payload: what the workflow's
// payload schema says, so the event passes the workflow's payload validation as it is.

describe('test payload from a payload schema', () => {
  it('is empty without a schema', () => {
    expect(testPayload(null)).toEqual({});
    expect(testPayload(undefined)).toEqual({});
    expect(testPayload({ type: 'string' })).toEqual({});
  });

  it('takes defaults first, then the first example, then const and enum', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'string', default: 'from default', examples: ['from example'] },
        b: { type: 'string', examples: ['from example', 'second'] },
        c: { const: 42 },
        d: { type: 'string', enum: ['low', 'high'] },
      },
    };
    expect(testPayload(schema)).toEqual({ a: 'from default', b: 'from example', c: 42, d: 'low' });
  });

  it('gives each type a placeholder of that type', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        email: { type: 'string', format: 'email' },
        at: { type: 'string', format: 'date-time' },
        link: { type: 'string', format: 'uri' },
        count: { type: 'integer' },
        price: { type: 'number' },
        paid: { type: 'boolean' },
        nothing: { type: 'null' },
        optional: { type: ['null', 'string'] },
        loose: { type: 'object' },
      },
    };
    expect(testPayload(schema)).toEqual({
      name: 'name',
      email: 'user@example.com',
      at: '1970-01-01T00:00:00.000Z',
      link: 'https://example.com',
      count: 0,
      price: 0,
      paid: false,
      nothing: null,
      optional: 'optional',
      loose: {},
    });
  });

  it('fills nested objects and arrays of objects', () => {
    const schema = {
      type: 'object',
      properties: {
        order: {
          type: 'object',
          properties: {
            id: { type: 'string', examples: ['ord_1'] },
            items: {
              type: 'array',
              items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer', default: 1 } } },
            },
            notes: { type: 'array' },
          },
        },
      },
    };
    expect(testPayload(schema)).toEqual({ order: { id: 'ord_1', items: [{ sku: 'sku', qty: 1 }], notes: [] } });
  });

  it('stops at a bounded depth on a schema that nests without end', () => {
    const node: Record<string, unknown> = { type: 'object', properties: {} };
    (node.properties as Record<string, unknown>).child = node;
    let value = testPayload(node) as Record<string, unknown>;
    let depth = 0;
    while (value.child && Object.keys(value.child).length > 0) {
      value = value.child as Record<string, unknown>;
      depth += 1;
    }
    expect(depth).toBeLessThan(10);
  });
});
