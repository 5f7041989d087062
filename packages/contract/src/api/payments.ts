import { PAYMENT_MODES } from '@rideway/domain';
import { z } from 'zod';
import { bookingSchema } from '../booking';
import { optionalBody } from '../http';

/** Request and response schemas of the payments routes. */

/** POST /api/bookings/:id/pay: the rider's payment or the driver's closing of the trip. */
export const payStepSchema = optionalBody(z.object({ payment_mode: z.enum(PAYMENT_MODES, { error: 'payment_mode_invalid' }) }));

/** Section 4's card payment form: its hidden fields, posted to the provider's link. */
export const paymentFormSchema = z.object({
  redirect: z.string(),
  method: z.literal('POST'),
  fields: z.object({
    order_id: z.string(),
    amount: z.string(),
    currency: z.string(),
    product_name: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    quantity: z.string(),
    cust_id: z.string(),
    mobile_no: z.string(),
    email: z.string(),
  }),
});
export type PaymentForm = z.infer<typeof paymentFormSchema>;

/** The booking after the step, or, for a rider's card, the form to post to the provider. */
export const payResponse = z.union([bookingSchema, paymentFormSchema]);

/** The payment form as the test provider's checkout receives it (a form post, or JSON). */
export const testCheckoutSchema = z.object({
  order_id: z.string().max(100),
  amount: z.string().max(20),
  currency: z.string().max(8),
  product_name: z.string().max(200).optional(),
});
export type TestCheckout = z.output<typeof testCheckoutSchema>;

/**
 * The test provider's signed confirmation. Each field is text here: an altered one is refused by
 * the signature check, which answers for all of them.
 */
export const testConfirmationSchema = z.object({
  order_id: z.string().max(100),
  amount_minor: z.string().max(20),
  currency: z.string().max(8),
  transaction_id: z.string().max(100),
  outcome: z.string().max(20),
  signature: z.string().max(200),
});
export type TestConfirmation = z.output<typeof testConfirmationSchema>;

/** The provider's pages are HTML. */
export const htmlPage = { description: 'An HTML page', content: { 'text/html': { schema: z.string() } } };
