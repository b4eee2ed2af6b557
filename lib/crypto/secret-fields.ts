import { dataKeys, open, seal } from './data-keys.ts';

// Encrypts the secret fields of a record's field groups (e.g. an integration's credentials and
// configurations) under one data key, and reverses it on the way out. Encrypted values carry a
// prefix, so a value stored before a field became secret still reads back.

const PREFIX = 'enc:v1:';

type Group = Record<string, unknown>;
type Groups = Record<string, Group | undefined>;

export async function encryptSecrets<T extends Groups>(
  groups: T,
  secretKeys: { [K in keyof T]?: readonly string[] },
): Promise<{ groups: T; dataKey?: string }> {
  const toSeal = (name: keyof T) =>
    (secretKeys[name] ?? []).filter((k) => {
      const v = groups[name]?.[k];
      return typeof v === 'string' && v !== '' && !isSealed(v);
    });
  const names = Object.keys(groups) as (keyof T)[];
  if (names.every((name) => toSeal(name).length === 0)) return { groups };

  const { plaintext, wrapped } = await dataKeys().generate();
  const out: Groups = {};
  for (const name of names) {
    const group = groups[name];
    if (!group) continue;
    const sealed: Group = { ...group };
    for (const k of toSeal(name)) sealed[k] = PREFIX + seal(plaintext, Buffer.from(group[k] as string, 'utf8'));
    out[name as string] = sealed;
  }
  return { groups: out as T, dataKey: wrapped };
}

export async function decryptSecrets<T extends Groups>(groups: T, dataKey: string | undefined): Promise<T> {
  const hasSealed = Object.values(groups).some((g) => g && Object.values(g).some(isSealed));
  if (!hasSealed) return groups;
  if (!dataKey) throw new Error('Encrypted fields without a data key');
  const key = await dataKeys().unwrap(dataKey);
  const out: Groups = {};
  for (const [name, group] of Object.entries(groups)) {
    if (!group) continue;
    const opened: Group = {};
    for (const [k, v] of Object.entries(group)) {
      opened[k] = isSealed(v) ? open(key, (v as string).slice(PREFIX.length)).toString('utf8') : v;
    }
    out[name] = opened;
  }
  return out as T;
}

export function isSealed(value: unknown): boolean {
  return typeof value === 'string' && value.startsWith(PREFIX);
}
