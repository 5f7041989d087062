/** Section 3 cancel reason: a label and its index as value. */
type CancelReason = { label: string; value: number };

/** Section 9: after a delete the value indices are renumbered from 0, in their order. */
export const renumberCancelReasons = (reasons: readonly { label: string }[]): CancelReason[] =>
  reasons.map((reason, value) => ({ label: reason.label, value }));
