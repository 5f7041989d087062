/**
 * What services record as things happen (issue 23 point 2), through `ctx.metrics?.…`: undefined
 * when the operator turned metrics off, so a service never needs to know whether they are on.
 * No imports: the app context names this type, and nothing here may lead back to it.
 */

/** What became of an offer made to a driver: taken, turned down, or left unanswered until the round ended. */
export type OfferOutcome = 'accepted' | 'declined' | 'expired';

export type MetricsRecorder = {
  /** A round of offers went out to `sent` drivers; the previous round's `expired` offers, still unanswered, ended with it. */
  dispatchRound(sent: number, expired: number): void;
  /** An offer was accepted or declined. */
  offerOutcome(outcome: Exclude<OfferOutcome, 'expired'>): void;
  /** A payment provider's news was acted on (`paid`, `failed`, `mismatch`...) or was a replay. */
  paymentConfirmation(provider: string, outcome: string): void;
};
