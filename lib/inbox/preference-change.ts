import { CHANNELS } from '../integrations/catalogue.ts';
import type { ChoiceChange } from '../preferences/repository.ts';
import type { PreferenceChannels } from '../preferences/schemas.ts';

// What an inbox preference change sends, as a change of the stored choices.

/** The channels a body sends (the other fields of the body left out). */
export function channelsOf(input: PreferenceChannels): PreferenceChannels {
  const channels: PreferenceChannels = {};
  for (const channel of CHANNELS) if (input[channel] !== undefined) channels[channel] = input[channel];
  return channels;
}

export const isEmpty = (change: ChoiceChange): boolean =>
  Object.keys(change.channels ?? {}).length === 0 && change.schedule === undefined && change.enabled === undefined;
