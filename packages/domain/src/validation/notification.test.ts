import { describe, expect, it } from 'vitest';
import { matchesNotificationTarget, notificationAudience, notificationRecipients, validateNotificationDraft } from './notification';

const users = [
  { id: 'r-android', usertype: 'rider', userPlatform: 'ANDROID', pushToken: 't1' },
  { id: 'r-ios', usertype: 'rider', userPlatform: 'IOS', pushToken: 't2' },
  { id: 'd-android', usertype: 'driver', userPlatform: 'ANDROID', pushToken: 't3' },
  { id: 'd-untokened', usertype: 'driver', userPlatform: 'IOS', pushToken: null },
  { id: 'admin', usertype: 'admin', userPlatform: 'ANDROID', pushToken: 't5' },
];

describe('section 5: notification targeting', () => {
  it('matches usertype (All or a type) and devicetype (All or a platform) among users with a push token', () => {
    const ids = (result: ReturnType<typeof notificationRecipients<(typeof users)[number]>>) => (result.ok ? result.value.map((u) => u.id) : result.key);
    expect(ids(notificationRecipients(users, { usertype: 'All', devicetype: 'All' }))).toEqual(['r-android', 'r-ios', 'd-android']);
    expect(ids(notificationRecipients(users, { usertype: 'rider', devicetype: 'IOS' }))).toEqual(['r-ios']);
    expect(ids(notificationRecipients(users, { usertype: 'driver', devicetype: 'All' }))).toEqual(['d-android']);
  });

  it("answers 'no user match' when nobody matches", () => {
    expect(notificationRecipients(users, { usertype: 'driver', devicetype: 'IOS' })).toEqual({ ok: false, key: 'no_user_match' });
    expect(notificationRecipients([], { usertype: 'All', devicetype: 'All' })).toEqual({ ok: false, key: 'no_user_match' });
  });

  it('reads platforms case-insensitively', () => {
    expect(matchesNotificationTarget({ usertype: 'rider', userPlatform: 'android', pushToken: 'x' }, { usertype: 'rider', devicetype: 'ANDROID' })).toBe(true);
  });

  it('validates a draft: known targets, a title and a body', () => {
    expect(validateNotificationDraft({ usertype: 'All', devicetype: 'IOS', title: ' Hi ', body: 'News' })).toEqual({
      ok: true,
      value: { usertype: 'All', devicetype: 'IOS', title: 'Hi', body: 'News' },
    });
    expect(validateNotificationDraft({ usertype: 'admin', devicetype: 'All', title: 'a', body: 'b' })).toEqual({ ok: false, key: 'select_proper', field: 'usertype' });
    expect(validateNotificationDraft({ usertype: 'All', devicetype: 'WEB', title: 'a', body: 'b' })).toEqual({ ok: false, key: 'select_proper', field: 'devicetype' });
    expect(validateNotificationDraft({ usertype: 'All', devicetype: 'All', title: ' ', body: 'b' })).toEqual({ ok: false, key: 'notification_blank', field: 'title' });
    expect(validateNotificationDraft({ usertype: 'All', devicetype: 'All', title: 'a', body: 'x'.repeat(1001) })).toEqual({ ok: false, key: 'notification_blank', field: 'body' });
  });

  describe('notificationAudience (issue 19)', () => {
    const devices = [
      { uid: 'r1', usertype: 'rider', channel: 'webpush', platform: null },
      { uid: 'r1', usertype: 'rider', channel: 'expo', platform: 'IOS' },
      { uid: 'r2', usertype: 'rider', channel: 'fcm', platform: 'ANDROID' },
      { uid: 'd1', usertype: 'driver', channel: 'fcm', platform: 'ios' },
      { uid: 'd2', usertype: 'driver', channel: 'webpush', platform: 'ANDROID' },
      { uid: 'a1', usertype: 'admin', channel: 'webpush', platform: null },
    ] as const;
    it('takes every device of riders and drivers for All, browsers included, and counts them by channel', () => {
      const all = notificationAudience(devices, { usertype: 'All', devicetype: 'All' });
      expect(all).toMatchObject({ ok: true, value: { users: ['r1', 'r2', 'd1', 'd2'], counts: { webpush: 2, fcm: 2, expo: 1 } } });
    });
    it('takes only phones of the platform for ANDROID or IOS, and only the user type asked', () => {
      expect(notificationAudience(devices, { usertype: 'All', devicetype: 'IOS' })).toMatchObject({ ok: true, value: { users: ['r1', 'd1'], counts: { webpush: 0, fcm: 1, expo: 1 } } });
      expect(notificationAudience(devices, { usertype: 'rider', devicetype: 'ANDROID' })).toMatchObject({ ok: true, value: { users: ['r2'], counts: { webpush: 0, fcm: 1, expo: 0 } } });
      expect(notificationAudience(devices, { usertype: 'driver', devicetype: 'ANDROID' })).toEqual({ ok: false, key: 'no_user_match' });
      expect(notificationAudience([], { usertype: 'All', devicetype: 'All' })).toEqual({ ok: false, key: 'no_user_match' });
    });
  });
});
