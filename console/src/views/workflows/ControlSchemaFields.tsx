// A code-first step's control schema as a person reads it: each control its code declares, with
// its type, whether it is required and the default the code applies when no value is set. The
// whole schema stays one click away (StepCard's raw JSON).

interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  description?: string;
}

const typeOf = (property: PropertySchema): string =>
  property.enum ? `one of ${property.enum.map((v) => JSON.stringify(v)).join(', ')}` : [property.type ?? 'any'].flat().join(' or ');

export function ControlSchemaFields({ schema, label }: { schema: Record<string, unknown> | undefined; label: string }) {
  const properties = Object.entries((schema?.properties ?? {}) as Record<string, PropertySchema>);
  if (properties.length === 0) return <p>No controls: the code declares none for this step.</p>;
  const required = new Set(Array.isArray(schema?.required) ? (schema.required as string[]) : []);
  return (
    <dl className="step-controls" aria-label={label}>
      {properties.map(([name, property]) => (
        <div key={name}>
          <dt>
            <code>{name}</code>{' '}
            <small>
              {typeOf(property)}
              {required.has(name) && property.default === undefined ? ', required' : ''}
            </small>
          </dt>
          <dd>
            {property.description && <p>{property.description}</p>}
            {property.default === undefined ? (
              <em>no default</em>
            ) : (
              <>
                default <pre>{typeof property.default === 'string' ? property.default : JSON.stringify(property.default)}</pre>
              </>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
