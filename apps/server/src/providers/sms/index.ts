import type { Config } from '../../config';
import { gatewaySender } from './gateway';
import type { SmsSender } from './port';

/** The SMS provider the configuration names (docs/sms.md), or none: SMS then stay in the outbox for admins. */
export function smsSenderFrom(config: Config): SmsSender | undefined {
  if (config.TWILIO_ACCOUNT_SID && config.TWILIO_AUTH_TOKEN) {
    const options = {
      accountSid: config.TWILIO_ACCOUNT_SID,
      authToken: config.TWILIO_AUTH_TOKEN,
      ...(config.TWILIO_FROM ? { from: config.TWILIO_FROM } : {}),
      ...(config.TWILIO_MESSAGING_SERVICE_SID ? { messagingServiceSid: config.TWILIO_MESSAGING_SERVICE_SID } : {}),
      ...(config.TWILIO_API_URL ? { apiUrl: config.TWILIO_API_URL } : {}),
      timeoutMs: config.SMS_TIMEOUT_MS,
    };
    // Twilio's SDK loads with the first message: a server that sends none never holds it (issue 21 point 4).
    let sender: Promise<SmsSender> | undefined;
    return {
      name: 'twilio',
      send: async (to, text) => (await (sender ??= import('./twilio').then(({ twilioSender }) => twilioSender(options)))).send(to, text),
    };
  }
  if (config.SMS_GATEWAY_URL) {
    return gatewaySender({
      url: config.SMS_GATEWAY_URL,
      method: config.SMS_GATEWAY_METHOD,
      headers: config.SMS_GATEWAY_HEADERS,
      ...(config.SMS_GATEWAY_BODY === undefined ? {} : { body: config.SMS_GATEWAY_BODY }),
      timeoutMs: config.SMS_TIMEOUT_MS,
    });
  }
  return undefined;
}
