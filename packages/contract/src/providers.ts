import { z } from 'zod';

/** Section 3 Payment provider names. */
export const PAYMENT_PROVIDER_NAMES = [
  'paypal', 'braintree', 'stripe', 'paytm', 'payulatam', 'flutterwave', 'paystack', 'securepay', 'payfast', 'liqpay', 'culqi', 'mercadopago', 'test',
] as const;

/** Section 3 Payment provider: a name and the link its payment form posts to. */
export const paymentProviderSchema = z.object({ name: z.enum(PAYMENT_PROVIDER_NAMES), link: z.string() });
export type PaymentProvider = z.infer<typeof paymentProviderSchema>;

/** Section 3 Country list entry. */
export const countrySchema = z.object({ code: z.string().length(2), label: z.string(), phone: z.string() });
export type Country = z.infer<typeof countrySchema>;
