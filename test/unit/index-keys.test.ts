import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { messageFromItem, messageItem } from '#lib/messages/repository.ts';
import type { StoredMessage } from '#lib/messages/model.ts';
import { subscriberFromItem } from '#lib/subscribers/repository.ts';
import { newId } from '#lib/ids.ts';
import { INDEXES } from '#lib/store/keys.ts';
import { TABLE } from '#lib/store/table.ts';

// Each kind of item says once which indexes it is on (keys.ts INDEXES): its reader strips the keys
// of those indexes and nothing else, so a kind put on another index is read back without them.

const keyAttributes = (indexes: Record<string, { partitionKey: string; sortKey: string }>) =>
  Object.values(indexes).flatMap((index) => [index.partitionKey, index.sortKey]);

describe('index keys per kind of item', () => {
  it('name only indexes the table has', () => {
    const names = new Set<string>(TABLE.indexes.map((index) => index.name));
    for (const kind of Object.values(INDEXES)) for (const index of Object.values(kind)) expect(names).toContain(index.name);
  });

  it('are stripped by the subscriber reader, and nothing else is', () => {
    const stored = { subscriberId: 's1', email: 'a@b.c', createdAt: '2026-01-01T00:00:00.000Z' };
    const item = { pk: 'P', sk: 'PROFILE', ...Object.fromEntries(keyAttributes(INDEXES.subscriber).map((a) => [a, 'x'])), ...stored };
    expect(subscriberFromItem(item)).toEqual(stored);
  });

  it('are stripped by the message reader from a stored in-app message with every index key', () => {
    const message = {
      _id: newId(),
      _organizationId: 'o1',
      _environmentId: 'e1',
      subscriberId: 's1',
      channel: 'in_app',
      seen: false,
      read: false,
      archived: false,
      createdAt: '2026-01-01T00:00:00.000Z',
    } as unknown as StoredMessage;
    const item = messageItem(message);
    for (const attribute of keyAttributes(INDEXES.message).filter((a) => !a.startsWith(INDEXES.message.byProviderId.name))) {
      expect(item, attribute).toHaveProperty(attribute);
    }
    const read = messageFromItem(item) as unknown as Record<string, unknown>;
    for (const attribute of ['pk', 'sk', ...keyAttributes(INDEXES.message)]) expect(read, attribute).not.toHaveProperty(attribute);
  });
});

// The stored names of the indexes (`gsiN`, `gsiNpk`, `gsiNsk`) are written once, where the table is
// defined; every Query names its index and key attributes from there (table.ts `INDEX`, keys.ts
// `INDEXES`, index-keys.ts `onIndex`), so an index is renamed or added in one place. Comments may
// mention them; code may not spell them.
const ROOT = join(import.meta.dirname, '../..');
const DEFINITION = 'lib/store/table.ts';
const CODE = ['lib', 'functions', 'infra', 'bench'];

const sourceFiles = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));

/** The string and template literals of a source that spell an index's name, as `file: text`. */
function indexNamesSpelled(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) && /\bgsi\d/.test(node.text)) found.push(`${file}: ${node.text}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('index names', () => {
  it('are spelled only where the table is defined', () => {
    const files = CODE.flatMap(sourceFiles).filter((file) => file !== DEFINITION);
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap(indexNamesSpelled)).toEqual([]);
  });
});
