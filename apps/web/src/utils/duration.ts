/** Whole minutes of a duration in seconds, at least one: "0 min away" reads as a promise nobody can keep. */
export const wholeMinutes = (seconds: number): number => Math.max(1, Math.ceil(seconds / 60));

/** Time left as m:ss (a countdown), never below 0:00. */
export function countdownText(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${String(Math.floor(seconds / 60))}:${String(seconds % 60).padStart(2, '0')}`;
}
