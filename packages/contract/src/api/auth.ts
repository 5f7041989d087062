import { z } from 'zod';

/** Sign-up, sign-in and password reset (section 5). */

export const registerRequestSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  mobile: z.string().meta({ description: 'Digits only, at least 6; the dial code is chosen apart' }),
  password: z.string(),
  usertype: z.enum(['rider', 'driver']).optional(),
  referralId: z.string().optional(),
  carType: z.string().optional().meta({ description: 'Drivers: the name of a car type' }),
  vehicleNumber: z.string().optional(),
  vehicleMake: z.string().optional(),
  vehicleModel: z.string().optional(),
  licenseImage: z.string().optional().meta({ description: 'Drivers: the licence image as a PNG, JPEG or WebP data URL' }),
});

export const loginRequestSchema = z.object({ email: z.string(), password: z.string() });
export const otpRequestSchema = z.object({ mobile: z.string() });
export const otpVerifySchema = z.object({ verificationId: z.string(), otp: z.string().meta({ description: '6 digits' }) });
export const passwordResetRequestSchema = z.object({ email: z.string() });
export const passwordResetConfirmSchema = z.object({ token: z.string(), password: z.string() });
