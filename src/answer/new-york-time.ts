/**
 * New York's wall time as an instant: the live service's TIME_ZONE is America/New_York, and Django
 * reads a date and time without an offset in it (`make_aware`, the earlier of two readings of an hour
 * that repeats). Through Intl's time zones, which Node, workerd, Deno and Vercel's edge runtime all
 * carry: the answerer has no Node API.
 */
let format: Intl.DateTimeFormat | undefined;

/** New York's offset from UTC at an instant, in milliseconds (east positive). */
function offsetAt(instantMs: number): number {
  format ??= new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/New_York',
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(new Date(instantMs))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  const wall = new Date(0);
  wall.setUTCFullYear(parts.year!, parts.month! - 1, parts.day!);
  wall.setUTCHours(parts.hour!, parts.minute!, parts.second!, 0);
  const whole = Math.floor(instantMs / 1000) * 1000;
  return wall.getTime() - whole;
}

/** The instant (microseconds since 1970, UTC) of a New York wall time given as if it were UTC. */
export function wallTimeInstant(wallMicroseconds: number): number {
  const wallMs = Math.floor(wallMicroseconds / 1000);
  const first = offsetAt(wallMs);
  let offset = offsetAt(wallMs - first);
  // Across a change of offset the second reading is the one in effect at the instant; an hour that
  // repeats keeps its first (daylight) reading, as Python's fold=0 does.
  if (offset !== first && offsetAt(wallMs - offset) !== offset) offset = first;
  return wallMicroseconds - offset * 1000;
}
