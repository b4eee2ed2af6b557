// Where the live inbox connects: served by the API next to the console (functions/console/serve.ts),
// because the WebSocket API has its own URL, known to the deployment and not to the build.

export interface ConsoleConfig {
  /** The WebSocket API's URL (`wss://…` deployed, `ws://127.0.0.1:3001` locally). */
  socketUrl: string;
}

let loaded: Promise<ConsoleConfig> | undefined;

export function consoleConfig(): Promise<ConsoleConfig> {
  loaded ??= fetch('/console/config.json').then(async (response) => {
    if (!response.ok) throw new Error(`The console's configuration could not be read (${response.status})`);
    return (await response.json()) as ConsoleConfig;
  });
  return loaded;
}
