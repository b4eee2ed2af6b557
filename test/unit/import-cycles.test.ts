import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The import graph of lib/, read from the sources (static imports and re-exports, type-only ones
// included: they tie areas together as much). A module reached again through its own imports is
// a cycle; between areas (lib/<area>/, or a module at lib/'s top), two areas that import each
// other are one tangle that neither can be read, tested or moved without. Lazy `import()`s are
// not counted: they load a module on first use (bundle size), they do not shape the code.

const ROOT = join(import.meta.dirname, '../..');
const LIB = join(ROOT, 'lib');

/**
 * Pairs of areas that still import each other, alphabetically, each `a <-> b`. Each is one to
 * break by moving the shared piece to where it belongs; none may be added.
 */
const KNOWN_MUTUAL_AREAS = [
  'accounts <-> integrations',
  'accounts <-> translations',
  'email <-> pipeline',
  'email <-> workflows',
  'inbox <-> live',
  'integrations <-> providers',
  'layouts <-> pipeline',
  'layouts <-> translations',
  'layouts <-> workflows',
  'live <-> messages',
  'subscribers <-> topics',
  'translations <-> workflows',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

const IMPORT = /^(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm;

/** Each module of lib/ with the modules of lib/ it imports (absolute paths). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(LIB)) {
    const targets = [...readFileSync(file, 'utf8').matchAll(IMPORT)].flatMap(([, specifier]) => {
      if (specifier!.startsWith('#lib/')) return [join(LIB, specifier!.slice('#lib/'.length))];
      if (specifier!.startsWith('.')) return [resolve(dirname(file), specifier!)];
      return [];
    });
    graph.set(
      file,
      targets.filter((target) => target.startsWith(`${LIB}/`)),
    );
  }
  return graph;
}

const areaOf = (file: string): string => relative(LIB, file).split('/')[0]!.replace(/\.ts$/, '');
const name = (file: string): string => relative(ROOT, file);

/** Modules that import themselves through others: each cycle once, as the path that closes it. */
function moduleCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const visit = (file: string, path: string[]) => {
    const at = path.indexOf(file);
    if (at >= 0) return void cycles.push([...path.slice(at), file].map(name));
    if (done.has(file) || !graph.has(file)) return;
    for (const target of graph.get(file)!) visit(target, [...path, file]);
    done.add(file);
  };
  for (const file of graph.keys()) visit(file, []);
  return cycles;
}

/** Every pair of areas that import each other, with the imports each way. */
function mutualAreas(graph: Map<string, string[]>): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const [from, to] = [areaOf(file), areaOf(target)];
      if (from === to) continue;
      const key = `${from} -> ${to}`;
      edges.set(key, [...(edges.get(key) ?? []), `${name(file)} -> ${name(target)}`]);
    }
  }
  const mutual = new Map<string, string[]>();
  for (const [key, imports] of edges) {
    const [from, to] = key.split(' -> ') as [string, string];
    const back = edges.get(`${to} -> ${from}`);
    if (from < to && back) mutual.set(`${from} <-> ${to}`, [...imports, ...back]);
  }
  return mutual;
}

describe('import cycles in lib/', () => {
  const graph = importGraph();

  it('reads the graph (a module with imports is found)', () => {
    expect(graph.get(join(LIB, 'store/retention.ts'))).toContain(join(LIB, 'config.ts'));
  });

  it('has no module that imports itself through others', () => {
    expect(moduleCycles(graph)).toEqual([]);
  });

  it('has no pair of areas importing each other beyond the known ones, and each known one still exists', () => {
    const mutual = mutualAreas(graph);
    const added = [...mutual.keys()].filter((pair) => !KNOWN_MUTUAL_AREAS.includes(pair));
    expect(Object.fromEntries(added.map((pair) => [pair, mutual.get(pair)])), 'new: move the shared piece instead').toEqual({});
    const gone = KNOWN_MUTUAL_AREAS.filter((pair) => !mutual.has(pair));
    expect(gone, 'broken: remove from KNOWN_MUTUAL_AREAS').toEqual([]);
  });
});
