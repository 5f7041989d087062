import { z } from 'zod';
import { trackingEntrySchema } from '../booking';

/** Request and response schemas of the tracking routes. */

/**
 * A tracking entry as the log keeps it: its id is the entry's serial number (section 3 names only
 * an id). `min(1)`, not `positive()`: OpenAPI 3.0's boolean exclusiveMinimum is not JSON Schema.
 */
const loggedTrackingEntry = trackingEntrySchema.extend({ id: z.union([trackingEntrySchema.shape.id, z.number().int().min(1)]) });

export const trackingListResponse = z.object({ tracking: z.array(loggedTrackingEntry) });
