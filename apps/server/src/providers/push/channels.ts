/** The three ways a push message leaves (issue 19): Web Push to browsers, FCM to Android and iOS phones, Expo to Expo apps. */
export const PUSH_CHANNELS = ['webpush', 'fcm', 'expo'] as const;
export type PushChannel = (typeof PUSH_CHANNELS)[number];

/** A stored subscription's kind (webpush, fcm, apns, expo) by the channel it leaves on: an iOS token (apns) is an FCM registration token. */
export const channelOfDevice = (kind: string): PushChannel => (kind === 'webpush' ? 'webpush' : kind === 'expo' ? 'expo' : 'fcm');
