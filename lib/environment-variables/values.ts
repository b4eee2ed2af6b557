import type { EnvScope } from '../scope.ts';
import { listVariables, openValue } from './repository.ts';

// What templates see as `env`: every variable that has a value in the environment, by key, in
// clear (a secret too: it is for the message, never for an answer). Read only for steps whose
// templates name `env` (lib/pipeline/run-job.ts), through the consumers' read cache.

export async function environmentVariableValues(scope: EnvScope): Promise<Record<string, string>> {
  const variables = await listVariables(scope.organizationId);
  const entries = await Promise.all(
    variables.flatMap((variable) => {
      const sealed = variable.values[scope.environmentId];
      return sealed === undefined ? [] : [openValue(variable.dataKey, sealed).then((value) => [variable.key, value] as const)];
    }),
  );
  return Object.fromEntries(entries);
}
