// Lengths of time the service counts in: a day is always 24 h of UTC milliseconds (retention,
// defer limits, schedule look-ahead, durations of waits), never a calendar day.

export const DAY_MS = 86_400_000;
