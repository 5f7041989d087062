import { RATING_DECIMALS } from './spec-constants';
import { roundHalfAwayFromZero } from './money';

type RatingEntry = { user: string; rate: number };
type Ratings = { userrating: number; details: RatingEntry[] };

const SCALE = 10 ** RATING_DECIMALS;

/** The longest comment a rider may leave with a rating (issue 17; decisions.md). */
export const MAX_RATING_COMMENT_LENGTH = 500;

/** Section 9: the average of the rates, to 1 decimal; 0 with no ratings. */
export function averageRating(details: readonly RatingEntry[]): number {
  if (details.length === 0) return 0;
  const sum = details.reduce((total, entry) => total + entry.rate, 0);
  return roundHalfAwayFromZero((sum / details.length) * SCALE) / SCALE;
}

/** Section 4 COMPLETE: the rating is appended and the driver's average recomputed. */
export function appendRating(ratings: Ratings | null | undefined, entry: RatingEntry): Ratings {
  const details = [...(ratings?.details ?? []), entry];
  return { userrating: averageRating(details), details };
}
