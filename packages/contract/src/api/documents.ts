import { DOCUMENT_KINDS, DOCUMENT_PROBLEMS, DOCUMENT_STATUSES, isCalendarDate, PROBLEM_SUBJECTS } from '@rideway/domain';
import { z } from 'zod';
import { keyedString } from '../http';
import { epochMs } from '../primitives';

/** Issue 20 point 3: a driver's documents, each with an expiry date, reviewed by an admin or the driver's fleet admin. */

/** An uploaded document image is at most 5 MiB, as the sign-up licence. */
export const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;
const MAX_DOCUMENT_DATA_URL = Math.ceil((MAX_DOCUMENT_BYTES * 4) / 3) + 100;

export const documentKindSchema = z.enum(DOCUMENT_KINDS);
export const documentStatusSchema = z.enum(DOCUMENT_STATUSES);

export const driverDocumentSchema = z.object({
  id: z.string(),
  uid: z.string(),
  kind: documentKindSchema,
  /** The driver's vehicle a registration or insurance belongs to; null for the licence and ID. */
  vehicleId: z.string().nullable(),
  /** Where the image is served (/api/files/documents/…): only to the driver, its fleet admin and admins. */
  image: z.string(),
  /** The last day the document is valid, YYYY-MM-DD in the operator's time zone. */
  expiresOn: z.string(),
  status: documentStatusSchema,
  reason: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  reviewedAt: epochMs.nullable(),
  createdAt: epochMs,
});
export type DriverDocument = z.infer<typeof driverDocumentSchema>;

/**
 * `vehicle`: the active vehicle is missing (none, or rejected) or waits for review. A registration
 * or insurance problem names the active vehicle it is about: its id, and its name as the driver
 * typed it (make, model and number).
 */
export const documentProblemSchema = z.object({ kind: z.enum(PROBLEM_SUBJECTS), problem: z.enum(DOCUMENT_PROBLEMS), vehicleId: z.string().optional(), vehicle: z.string().optional() });
export type DocumentProblemView = z.infer<typeof documentProblemSchema>;

/** GET /api/driver/documents: the current document of each kind (a registration and insurance per vehicle), what keeps the driver offline, and whether documents are required. */
export const myDocumentsResponse = z.object({
  documents: z.array(driverDocumentSchema),
  problems: z.array(documentProblemSchema),
  required: z.boolean(),
});
export type MyDocuments = z.infer<typeof myDocumentsResponse>;

export const documentKindParams = z.object({ kind: documentKindSchema });

/**
 * PUT /api/driver/documents/:kind: the image (a PNG, JPEG or WebP data URL) and its expiry date;
 * a registration or insurance names the driver's own vehicle it is for (`vehicleId`), a licence or
 * ID names none.
 */
export const documentUploadSchema = z.object({
  image: keyedString('proper_document_image', MAX_DOCUMENT_DATA_URL),
  expiresOn: z.string({ error: 'proper_expiry_date' }).refine(isCalendarDate, { error: 'proper_expiry_date' }),
  vehicleId: keyedString('document_vehicle_required', 100).optional(),
});
export type DocumentUpload = z.infer<typeof documentUploadSchema>;
export const documentResponse = z.object({ document: driverDocumentSchema });

/** GET /api/documents: what an admin (all drivers) or a fleet admin (its own) reviews. */
export const documentListQuery = z.object({ status: documentStatusSchema.optional() });
/** `vehicle`: the name (make, model and number) of the vehicle a registration or insurance is for. */
export const reviewDocumentSchema = driverDocumentSchema.extend({ driverName: z.string(), driverEmail: z.string().nullable(), vehicle: z.string().nullable() });
export type ReviewDocument = z.infer<typeof reviewDocumentSchema>;
export const documentListResponse = z.object({ documents: z.array(reviewDocumentSchema) });

/** POST /api/documents/:id/reject: the reason the driver reads. */
export const documentRejectSchema = z.object({ reason: keyedString('no_details_error', 500).refine((value) => value.trim() !== '', { error: 'no_details_error' }) });
