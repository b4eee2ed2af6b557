// Whose data a call touches: every tenant key (lib/store/keys.ts), every use case and every
// check that one API key never reaches another environment's data is scoped by this pair.
export interface EnvScope {
  organizationId: string;
  environmentId: string;
}
