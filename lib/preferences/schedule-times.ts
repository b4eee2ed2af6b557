// The parts of a subscriber's delivery schedule that the pipeline reads as well as the
// preferences schemas (schemas.ts): the week's days and the reference's 12-hour times.

export const WEEK_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/** A 12-hour clock time as the reference writes it: `09:00 AM`. */
export const TIME_12H = /^(0[1-9]|1[0-2]):[0-5]\d (AM|PM)$/;

/** Minutes since midnight of a valid `TIME_12H` time. */
export function minutesOf(time: string): number {
  const [, hh, mm, half] = /^(\d\d):(\d\d) (AM|PM)$/.exec(time)!;
  return ((Number(hh) % 12) + (half === 'PM' ? 12 : 0)) * 60 + Number(mm);
}
