import { isStandardEmail, PUSH_SCREENS, validateMobile } from '@rideway/domain';
import { z } from 'zod';
import { keyedString, okResponseSchema } from '../http';
import { epochMs, uid } from '../primitives';
import { paymentProviderSchema } from '../providers';
import { registerRequestSchema } from './auth';

/** The section 7 server calls, at their paths and with their payloads. */

const CONTACT_ISSUE = 'email_or_mobile_issue';

/**
 * POST /check_user_exists: an email and/or a mobile. A contact that is not a valid one is left
 * out of the search; with neither left, email_or_mobile_issue.
 */
export const checkUserExistsRequestSchema = z
  .object({
    email: z
      .string({ error: CONTACT_ISSUE })
      .optional()
      .transform((email) => (isStandardEmail(email) ? email.trim().toLowerCase() : undefined)),
    mobile: z
      .string({ error: CONTACT_ISSUE })
      .optional()
      .transform((mobile) => {
        const checked = validateMobile(mobile);
        return checked.ok ? checked.value : undefined;
      }),
  })
  .refine((contacts) => contacts.email !== undefined || contacts.mobile !== undefined, { message: CONTACT_ISSUE });
export type CheckUserExistsRequest = z.output<typeof checkUserExistsRequestSchema>;

/** A flag per contact the caller typed: never who the account belongs to. */
export const checkUserExistsResponse = z.object({ users: z.array(z.object({ email: z.boolean(), mobile: z.boolean() })) });

/** POST /user_signup: the sign-up form's fields (as POST /api/auth/register) plus createdAt. */
export const userSignupRequestSchema = z.object({
  regData: registerRequestSchema.safeExtend({
    createdAt: epochMs.optional().meta({ description: 'Sent by the section 7 client; the server stamps the account itself' }),
  }),
});
export const userSignupResponse = z.object({ uid });

/** POST /validate_referrer: the uid behind a referral id, or referer_not_found. */
export const validateReferrerRequestSchema = z.object({ referralId: keyedString('referer_not_found', 40).min(1) });
export const validateReferrerResponse = z.object({ uid });

/** GET /get_providers: the payment providers in force; empty means none. */
export const providersResponse = z.array(paymentProviderSchema);

/**
 * POST /send_notification: a push to the user holding a token. Section 7 sends "token plus extra
 * fields", so fields beyond these pass; title and msg are the push message.
 */
export const sendNotificationRequestSchema = z.looseObject({
  token: keyedString('notification_blank', 500).min(1),
  title: keyedString('notification_blank', 100).trim().min(1),
  msg: keyedString('notification_blank', 1000).trim().min(1),
  screen: z.enum(PUSH_SCREENS).optional(),
});
export type SendNotificationRequest = z.output<typeof sendNotificationRequestSchema>;
export const sendNotificationResponse = okResponseSchema;
