import { MESSAGE_KEYS } from '@rideway/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, users, walletEntries } from '../../src/db/schema';
import { PNG, sedan } from '../fixtures';
import { codeOf, createTestApp, ENGINES, reload, type TestApp } from '../harness';
import type { UserRow } from '../../src/modules/users/accounts';

const promo = { promo_name: 'save5', promo_discount_type: 'flat', promo_discount_value: 5, promo_validity: Date.UTC(2027, 0, 1), promo_usage_limit: 10 };

describe.each(ENGINES)('the admin catalogue on %s (spec sections 2, 3, 5, 6)', (engine) => {
  let t: TestApp;
  let admin: UserRow;
  beforeAll(async () => {
    t = await createTestApp(engine);
    admin = await t.makeUser('admin');
  });
  afterAll(() => t.close());

  describe('settings', () => {
    it('shows anyone the public subset and an admin every setting', async () => {
      const open = (await t.request({ method: 'GET', url: '/api/settings' })).json().settings;
      expect(open).toMatchObject({ appName: 'Rideway', symbol: '$', code: 'USD' });
      expect(open).not.toHaveProperty('license');
      expect(open).not.toHaveProperty('bonus');
      // Issue 15: the maps' tiles come from the configuration, as the security policy allows them.
      expect(open).toMatchObject({ mapTileUrl: t.config.MAP_TILE_URL, mapTileAttribution: t.config.MAP_TILE_ATTRIBUTION });
      const full = (await t.request({ method: 'GET', url: '/api/settings', as: admin })).json().settings;
      expect(full).toHaveProperty('license');
    });

    it('saves valid values and refuses bad ones with their keys, leaving the stored settings as they were', async () => {
      const saved = await t.request({ method: 'PATCH', url: '/api/settings', as: admin, payload: { bonus: '7.5', driverRadius: 12, appName: 'CityCab' } });
      expect(saved.json().settings).toMatchObject({ bonus: 7.5, driverRadius: 12, appName: 'CityCab' });
      for (const [payload, key] of [
        [{ bonus: '' }, 'proper_bonus'],
        [{ bonus: -1 }, 'proper_bonus'],
        [{ driverRadius: 'far' }, 'proper_driver_radius'],
        [{ appcat: 'boats' }, 'validation_error'],
        [{ unknownSetting: true }, 'validation_error'],
      ] as const) {
        const refused = await t.request({ method: 'PATCH', url: '/api/settings', as: admin, payload });
        expect([refused.statusCode, codeOf(refused)]).toEqual([400, key]);
      }
      expect((await t.request({ method: 'GET', url: '/api/settings', as: admin })).json().settings).toMatchObject({ bonus: 7.5, driverRadius: 12 });
      await t.setSettings({});
    });
  });

  describe('car types', () => {
    it('adds, edits and deletes a car type with parcel types, options and cancelSlab, in major units', async () => {
      const created = await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: { ...sedan, parcelTypes: [{ description: 'Box', amount: 2 }], cancelSlab: [{ minsDelayed: 5, amount: 3.5 }] } });
      expect(created.statusCode).toBe(201);
      const { cartype } = created.json();
      expect(cartype).toMatchObject({ ...sedan, parcelTypes: [{ description: 'Box', amount: 2 }], options: [], cancelSlab: [{ minsDelayed: 5, amount: 3.5 }] });
      const edited = await t.request({ method: 'PATCH', url: `/api/cartypes/${cartype.id}`, as: admin, payload: { min_fare: 6.25 } });
      expect(edited.json().cartype.min_fare).toBe(6.25);
      expect((await t.request({ method: 'GET', url: '/api/cartypes' })).json().cartypes.map((c: { name: string }) => c.name)).toContain('Sedan');
      expect((await t.request({ method: 'DELETE', url: `/api/cartypes/${cartype.id}`, as: admin })).statusCode).toBe(204);
      expect((await t.request({ method: 'DELETE', url: `/api/cartypes/${cartype.id}`, as: admin })).statusCode).toBe(404);
    });

    it('refuses bad car types: 3-decimal money, a fee over 100%, a duplicate name, unknown fields', async () => {
      for (const payload of [{ ...sedan, name: 'A', base_fare: 1.005 }, { ...sedan, name: 'B', convenience_fees: 150 }, { ...sedan, name: 'C', trip_cost: 1 }, { ...sedan, name: '' }]) {
        const refused = await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload });
        expect([refused.statusCode, codeOf(refused)]).toEqual([400, 'validation_error']);
      }
      await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: { ...sedan, name: 'Twin' } });
      expect(codeOf(await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: { ...sedan, name: 'Twin' } }))).toBe('validation_error');
    });

    it('stores an uploaded image and serves it', async () => {
      const { cartype } = (await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: { ...sedan, name: 'Pictured', image: PNG } })).json();
      expect(cartype.image).toMatch(/^\/api\/files\/cartypes\/.+\.png$/);
      const image = await t.request({ method: 'GET', url: cartype.image });
      expect([image.statusCode, image.headers['content-type']]).toEqual([200, 'image/png']);
    });
  });

  describe('cancel reasons', () => {
    it('numbers values from 0 and renumbers after a delete (section 9)', async () => {
      const ids: string[] = [];
      for (const label of ['Late', 'Changed plans', 'Other']) {
        ids.push((await t.request({ method: 'POST', url: '/api/cancel-reasons', as: admin, payload: { label } })).json().reason.id);
      }
      await t.request({ method: 'DELETE', url: `/api/cancel-reasons/${ids[0]}`, as: admin });
      const rider = await t.makeUser('rider');
      const reasons = (await t.request({ method: 'GET', url: '/api/cancel-reasons', as: rider })).json().reasons;
      expect(reasons.map((r: { label: string; value: number }) => [r.label, r.value])).toEqual([['Changed plans', 0], ['Other', 1]]);
      expect(codeOf(await t.request({ method: 'POST', url: '/api/cancel-reasons', as: admin, payload: { label: ' ' } }))).toBe('validation_error');
    });
  });

  describe('promos', () => {
    it('adds a promo with user_avail 0, which an admin can never set', async () => {
      const created = await t.request({ method: 'POST', url: '/api/promos', as: admin, payload: promo });
      expect(created.json().promo).toMatchObject({ promo_name: 'SAVE5', user_avail: 0, min_order: 0 });
      const sneaky = await t.request({ method: 'PATCH', url: `/api/promos/${created.json().promo.id}`, as: admin, payload: { user_avail: 99 } });
      expect([sneaky.statusCode, codeOf(sneaky), sneaky.json().error.field]).toEqual([400, 'validation_error', 'user_avail']);
      expect(codeOf(await t.request({ method: 'POST', url: '/api/promos', as: admin, payload: { ...promo, promo_name: 'P', promo_discount_type: 'percentage', promo_discount_value: 101 } }))).toBe('validation_error');
    });
  });

  describe('demo mode (AllowCriticalEditsAdmin false)', () => {
    beforeAll(() => t.setSettings({ AllowCriticalEditsAdmin: false }));
    afterAll(() => t.setSettings({}));

    it('blocks the critical edits with demo_mode (403) and allows promo add and user edit', async () => {
      const rider = await t.makeUser('rider');
      const { promo: added } = (await t.request({ method: 'POST', url: '/api/promos', as: admin, payload: { ...promo, promo_name: 'DEMO1' } })).json();
      expect(added.promo_name).toBe('DEMO1');
      const blocked = [
        await t.request({ method: 'POST', url: '/api/cartypes', as: admin, payload: { ...sedan, name: 'Demo' } }),
        await t.request({ method: 'PATCH', url: `/api/promos/${added.id}`, as: admin, payload: { promo_description: 'x' } }),
        await t.request({ method: 'DELETE', url: `/api/promos/${added.id}`, as: admin }),
        await t.request({ method: 'PATCH', url: '/api/settings', as: admin, payload: { bonus: 1 } }),
        await t.request({ method: 'DELETE', url: `/api/users/${rider.id}`, as: admin }),
        await t.request({ method: 'POST', url: '/api/notifications', as: admin, payload: { usertype: 'All', devicetype: 'All', title: 'a', body: 'b' } }),
      ];
      for (const response of blocked) expect([response.statusCode, codeOf(response)]).toEqual([403, 'demo_mode']);
      const edit = await t.request({ method: 'PATCH', url: `/api/users/${rider.id}`, as: admin, payload: { firstName: 'Edited' } });
      expect(edit.statusCode).toBe(200);
    });

    it("hides emails and mobiles as 'Hidden for Demo' and 'Hidden'", async () => {
      const list = (await t.request({ method: 'GET', url: '/api/users?usertype=rider', as: admin })).json().users;
      expect(list.length).toBeGreaterThan(0);
      for (const user of list) expect([user.email, user.mobile]).toEqual(['Hidden for Demo', 'Hidden']);
    });
  });

  describe('users', () => {
    it('an admin adds riders, drivers and fleet admins, checked with user_exists; lists never include admins', async () => {
      const created = await t.request({ method: 'POST', url: '/api/users', as: admin, payload: { firstName: 'Fay', lastName: 'Fleet', email: 'fay@example.com', mobile: '600000001', usertype: 'fleetadmin' } });
      expect(created.statusCode).toBe(201);
      expect(created.json().user).toMatchObject({ usertype: 'fleetadmin', createdByAdmin: true });
      expect(created.json().user.referralId).toMatch(/^fay\d{4}$/);
      const duplicate = await t.request({ method: 'POST', url: '/api/users', as: admin, payload: { firstName: 'Fay', lastName: 'Two', email: 'fay@example.com', mobile: '600000002', usertype: 'rider' } });
      expect(codeOf(duplicate)).toBe('user_exists');
      const addAdmin = await t.request({ method: 'POST', url: '/api/users', as: admin, payload: { firstName: 'X', lastName: 'Y', email: 'x@example.com', mobile: '600000003', usertype: 'admin' } });
      expect(addAdmin.statusCode).toBe(400);
      const everyone = (await t.request({ method: 'GET', url: '/api/users', as: admin })).json().users;
      expect(everyone.every((u: { usertype: string }) => u.usertype !== 'admin')).toBe(true);
    });

    it('a fleet admin sees and adds only its own drivers; another fleet\'s driver is not found', async () => {
      const fleetA = await t.makeUser('fleetadmin');
      const fleetB = await t.makeUser('fleetadmin');
      const other = await t.makeUser('driver', { fleetadmin: fleetB.id });
      const added = await t.request({ method: 'POST', url: '/api/users', as: fleetA, payload: { firstName: 'Dee', lastName: 'Own', email: 'dee.own@example.com', mobile: '600000010', usertype: 'driver' } });
      expect(added.json().user).toMatchObject({ usertype: 'driver', fleetadmin: fleetA.id });
      const riderAttempt = await t.request({ method: 'POST', url: '/api/users', as: fleetA, payload: { firstName: 'R', lastName: 'R', email: 'r.fleet@example.com', mobile: '600000011', usertype: 'rider' } });
      expect([riderAttempt.statusCode, codeOf(riderAttempt)]).toEqual([403, 'forbidden']);
      const list = (await t.request({ method: 'GET', url: '/api/users', as: fleetA })).json().users;
      expect(list.map((u: { id: string }) => u.id)).toEqual([added.json().user.id]);
      for (const response of [
        await t.request({ method: 'PATCH', url: `/api/users/${other.id}`, as: fleetA, payload: { firstName: 'Stolen' } }),
        await t.request({ method: 'DELETE', url: `/api/users/${other.id}`, as: fleetA }),
      ]) expect([response.statusCode, codeOf(response)]).toEqual([404, 'not_found']);
      expect((await reload(t, other))?.firstName).not.toBe('Stolen');
      const badName = await t.request({ method: 'PATCH', url: `/api/users/${added.json().user.id}`, as: fleetA, payload: { firstName: 42 } });
      expect(codeOf(badName)).toBe('proper_input_name');
      const approve = await t.request({ method: 'PATCH', url: `/api/users/${added.json().user.id}`, as: fleetA, payload: { approved: false } });
      expect(approve.statusCode).toBe(403);
    });

    it('deleting a user ends its sessions', async () => {
      const rider = await t.makeUser('rider');
      await t.tokenOf(rider);
      expect((await t.request({ method: 'DELETE', url: `/api/users/${rider.id}`, as: admin })).statusCode).toBe(204);
      expect((await t.request({ method: 'GET', url: '/api/me', as: rider })).statusCode).toBe(401);
    });
  });

  describe('push notifications', () => {
    it("sends to matching users with a push token through the outbox, or answers 'no user match'", async () => {
      const none = await t.request({ method: 'POST', url: '/api/notifications', as: admin, payload: { usertype: 'driver', devicetype: 'IOS', title: 'Hi', body: 'There' } });
      expect([none.statusCode, codeOf(none)]).toEqual([422, 'no_user_match']);
      const rider = await t.makeUser('rider');
      // Issue 19: the audience is the users' stored devices (here an Android phone's FCM token).
      expect((await t.request({ method: 'POST', url: '/api/push/subscriptions', as: rider, payload: { kind: 'fcm', token: 'tok-1-android-0123456789' } })).statusCode).toBe(201);
      const sent = await t.request({ method: 'POST', url: '/api/notifications', as: admin, payload: { usertype: 'rider', devicetype: 'ANDROID', title: 'Hi', body: 'There' } });
      expect(sent.json().notification).toMatchObject({ title: 'Hi', recipients: 1, devices: { webpush: 0, fcm: 1, expo: 0 } });
      const pushes = await t.db.select().from(outbox).where(eq(outbox.recipient, rider.id));
      expect(pushes.map((p) => p.payload)).toContainEqual({ title: 'Hi', msg: 'There', notification: sent.json().notification.id });
      expect(codeOf(await t.request({ method: 'POST', url: '/api/notifications', as: admin, payload: { usertype: 'rider', devicetype: 'ANDROID', title: '', body: 'x' } }))).toBe('notification_blank');
    });
  });

  describe('wallet and withdraws', () => {
    it('an admin credits a wallet (AdminCredit); the balance is the ledger sum; no_details_error otherwise', async () => {
      const driver = await t.makeUser('driver', { bankName: 'Bank', bankCode: '01', bankAccount: '123' });
      const credited = await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: driver.id, amount: 40.5 } });
      expect(credited.json()).toEqual({ walletBalance: 40.5 });
      for (const payload of [{ uid: driver.id, amount: 0 }, { uid: driver.id, amount: -1 }, { amount: 5 }, { uid: driver.id, amount: 1.001 }]) {
        expect(codeOf(await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload }))).toBe('no_details_error');
      }
      const wallet = (await t.request({ method: 'GET', url: '/api/wallet', as: driver })).json();
      expect(wallet.walletHistory).toEqual([expect.objectContaining({ type: 'Credit', amount: 40.5, txRef: 'AdminCredit' })]);
    });

    it('a driver withdraws at most its balance; an admin completes it once (processed, procesDate)', async () => {
      const driver = await t.makeUser('driver', { bankName: 'Bank', bankCode: '01', bankAccount: '123' });
      await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: driver.id, amount: 30 } });
      const tooMuch = await t.request({ method: 'POST', url: '/api/withdraws', as: driver, payload: { amount: 30.01 } });
      expect([tooMuch.statusCode, codeOf(tooMuch)]).toEqual([409, 'insufficient_balance']);
      const asked = await t.request({ method: 'POST', url: '/api/withdraws', as: driver, payload: { amount: 20 } });
      expect(asked.json().withdraw).toMatchObject({ amount: 20, processed: false, procesDate: null, bankAccount: '123' });
      expect((await t.request({ method: 'GET', url: '/api/wallet', as: driver })).json().walletBalance).toBe(10);
      const id = asked.json().withdraw.id;
      const done = await t.request({ method: 'POST', url: `/api/withdraws/${id}/complete`, as: admin });
      expect(done.json().withdraw).toMatchObject({ processed: true, procesDate: t.clock.now });
      const again = await t.request({ method: 'POST', url: `/api/withdraws/${id}/complete`, as: admin });
      expect([again.statusCode, codeOf(again)]).toEqual([409, 'withdraw_already_decided']);
      const own = (await t.request({ method: 'GET', url: '/api/withdraws', as: driver })).json().withdraws;
      expect(own).toHaveLength(1);
    });

    it('needs bank details when bank_fields is on', async () => {
      const driver = await t.makeUser('driver');
      await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: driver.id, amount: 10 } });
      expect(codeOf(await t.request({ method: 'POST', url: '/api/withdraws', as: driver, payload: { amount: 5 } }))).toBe('no_details_error');
      const withBank = await t.request({ method: 'POST', url: '/api/withdraws', as: driver, payload: { amount: 5, bankName: 'B', bankCode: '9', bankAccount: '42' } });
      expect(withBank.statusCode).toBe(201);
    });

    it('concurrent withdrawals never overdraw: the balance stays the ledger sum and at least 0', async () => {
      const driver = await t.makeUser('driver', { bankName: 'Bank', bankCode: '01', bankAccount: '123' });
      await t.request({ method: 'POST', url: '/api/wallet/credit', as: admin, payload: { uid: driver.id, amount: 50 } });
      const results = await Promise.all(Array.from({ length: 12 }, () => t.request({ method: 'POST', url: '/api/withdraws', as: driver, payload: { amount: 10 } })));
      expect(results.filter((r) => r.statusCode === 201)).toHaveLength(5);
      expect(results.filter((r) => r.statusCode !== 201).every((r) => codeOf(r) === 'insufficient_balance')).toBe(true);
      const entries = await t.db.select().from(walletEntries).where(eq(walletEntries.uid, driver.id));
      expect(entries.reduce((sum, e) => sum + e.amountMinor, 0)).toBe(0);
    });
  });

  describe('the outbox and the section 7 paths', () => {
    it('lets an admin read the outbox by channel', async () => {
      const rider = await t.makeUser('rider');
      await t.request({ method: 'POST', url: '/api/auth/password-reset', payload: { email: rider.email } });
      const mail = (await t.request({ method: 'GET', url: `/api/outbox?channel=mail&recipient=${rider.email}`, as: admin })).json().messages;
      expect(mail[0]).toMatchObject({ channel: 'mail', recipient: rider.email });
      expect(codeOf(await t.request({ method: 'GET', url: '/api/outbox?channel=fax', as: admin }))).toBe('validation_error');
    });

    it('/check_user_exists says which contact is taken, without naming the account', async () => {
      const rider = await t.makeUser('rider');
      const found = (await t.request({ method: 'POST', url: '/check_user_exists', payload: { email: rider.email, mobile: '000000000' } })).json();
      expect(found).toEqual({ users: [{ email: true, mobile: false }] });
      expect((await t.request({ method: 'POST', url: '/check_user_exists', payload: { email: 'free@example.com' } })).json()).toEqual({ users: [] });
      expect(codeOf(await t.request({ method: 'POST', url: '/check_user_exists', payload: {} }))).toBe('email_or_mobile_issue');
    });

    it('/validate_referrer, /user_signup, /get_providers', async () => {
      const rider = await t.makeUser('rider');
      expect((await t.request({ method: 'POST', url: '/validate_referrer', payload: { referralId: rider.referralId } })).json()).toEqual({ uid: rider.id });
      expect(codeOf(await t.request({ method: 'POST', url: '/validate_referrer', payload: { referralId: 'zzz0000' } }))).toBe('referer_not_found');
      const signup = await t.request({ method: 'POST', url: '/user_signup', payload: { regData: { firstName: 'Sig', lastName: 'Nup', email: 'signup@example.com', mobile: '611111111', password: 'abc123' } } });
      expect(signup.json().uid).toEqual(expect.any(String));
      // No provider is configured and the embedded test provider is off without demo data (issue 15): empty means none found.
      expect((await t.request({ method: 'GET', url: '/get_providers' })).json()).toEqual([]);
    });

    it('/send_notification pushes to the holder of a token (admins only)', async () => {
      const rider = await t.makeUser('rider');
      await t.db.update(users).set({ pushToken: 'tok-send' }).where(eq(users.id, rider.id));
      expect((await t.request({ method: 'POST', url: '/send_notification', as: admin, payload: { token: 'tok-send', title: 'T', msg: 'M', screen: 'wallet' } })).json()).toEqual({ ok: true });
      expect(codeOf(await t.request({ method: 'POST', url: '/send_notification', as: admin, payload: { token: 'none', title: 'T', msg: 'M' } }))).toBe('no_user_match');
      expect((await t.request({ method: 'POST', url: '/send_notification', as: rider, payload: { token: 'tok-send', title: 'T', msg: 'M' } })).statusCode).toBe(403);
    });

    it('/get_languages: English first and default, a right-to-left language and a third, each complete for every message key', async () => {
      const languages = (await t.request({ method: 'GET', url: '/get_languages' })).json();
      expect(Object.keys(languages)).toEqual(['en', 'ar', 'es']);
      expect(languages.en.default).toBe(true);
      expect(languages.ar.dir).toBe('rtl');
      for (const code of ['en', 'ar', 'es']) {
        for (const key of MESSAGE_KEYS) expect(languages[code].messages[key], `${code}.${key}`).toEqual(expect.stringMatching(/\S/));
      }
      expect(languages.ar.messages.past_booking_error).not.toBe(languages.en.messages.past_booking_error);
    });

    it('/get_languages?messages=es: every language listed, with the messages of Spanish and of the default only (issue 21 point 5)', async () => {
      const full = await t.request({ method: 'GET', url: '/get_languages' });
      const one = await t.request({ method: 'GET', url: '/get_languages?messages=es' });
      const languages = one.json();
      expect(Object.keys(languages)).toEqual(['en', 'ar', 'es']);
      expect(languages.ar).toEqual({ name: 'العربية', dir: 'rtl', default: false, messages: {} });
      expect(languages.es.messages).toEqual(full.json().es.messages);
      expect(languages.en.messages).toEqual(full.json().en.messages);
      // A page that shows one language loads about a third of the bytes.
      expect(one.body.length).toBeLessThan(full.body.length * 0.7);
      // None named (a first visit): the default's messages alone. An unknown code is ignored.
      const first = (await t.request({ method: 'GET', url: '/get_languages?messages=' })).json();
      expect([Object.keys(first.en.messages).length > 0, first.es.messages, first.ar.messages]).toEqual([true, {}, {}]);
      expect((await t.request({ method: 'GET', url: '/get_languages?messages=xx' })).json().es.messages).toEqual({});
      const bad = await t.request({ method: 'GET', url: '/get_languages?messages=%3Cscript%3E' });
      expect([bad.statusCode, codeOf(bad)]).toEqual([400, 'validation_error']);
    });
  });
});
