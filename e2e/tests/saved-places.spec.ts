import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiSignIn, choosePlace, signIn } from '../support/session';
import { driverOffered } from '../support/trips';

/**
 * Issue 17 point 12, in the browser: the rider's saved places (section 3's savedAddresses,
 * recorded at each drop) offered first in place search, the most used first, and picking one sets
 * the point; a place saved from the field; Home and Work named on the profile, a place renamed and
 * removed; and the operator's terms (CompanyTerms, set by the admin in Settings) on the register
 * page and linked from the footer.
 */

const PASSWORD = 'Secret123';
const pickup = { lat: 51.5308, lng: -0.1238, add: "King's Cross Station, London" };
const drop = { lat: 51.5081, lng: -0.0759, add: 'Tower of London, London' };

type SavedPlace = { id: number; description: string; count: number; label: string | null; name: string | null };

/** A fresh rider (its own saved places), registered through the API. */
async function newRider(request: APIRequestContext, tag: string): Promise<{ email: string; headers: Record<string, string> }> {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const email = `places-${tag}-${stamp}@example.com`;
  const registered = await request.post('/api/auth/register', { data: { firstName: 'Sam', lastName: 'Places', email, mobile: `78${stamp.slice(-8)}`, password: PASSWORD, usertype: 'rider' } });
  expect(registered.status(), await registered.text()).toBe(201);
  return { email, headers: await apiSignIn(request, email, PASSWORD) };
}

/** A cash trip run through the API to its drop (REACHED records it) and paid, which frees the driver. */
async function tripTo(request: APIRequestContext, rider: Record<string, string>): Promise<void> {
  const booked = await request.post('/api/bookings', { headers: rider, data: { pickup, drop, carType: 'Economy', payment_mode: 'cash' } });
  expect(booked.status(), await booked.text()).toBe(201);
  const { id } = (await booked.json()) as { id: string };
  const { headers: driver } = await driverOffered(request, id);
  for (const step of ['accept', 'arrive', 'start', 'reach']) {
    // The drop recorded is where the trip ended (section 4), from where it started to where it was
    // reached: the driver reports its position at the Tower before the start, so both are there
    // whatever other specs on the shared server left as its last position.
    if (step === 'start') expect((await request.post('/api/driver/location', { headers: driver, data: { lat: drop.lat, lng: drop.lng } })).status()).toBe(200);
    const moved = await request.post(`/api/bookings/${id}/${step}`, { headers: driver, data: {} });
    expect(moved.status(), `${step}: ${await moved.text()}`).toBe(200);
  }
  expect((await request.post(`/api/bookings/${id}/pay`, { headers: driver, data: { payment_mode: 'cash' } })).status()).toBe(200);
}

const savedPlaces = async (request: APIRequestContext, rider: Record<string, string>): Promise<SavedPlace[]> =>
  ((await (await request.get('/api/me/places', { headers: rider })).json()) as { places: SavedPlace[] }).places;

/** The options the open list shows, each as its text. */
const optionTexts = (page: Page) => page.getByRole('listbox').getByRole('option').allTextContents();

for (const width of [375, 1280]) {
  test(`saved places: offered first in place search, saved from the field, named and removed on the profile (${width} px)`, async ({ page, request }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 800 });
    const rider = await newRider(request, String(width));
    // Two trips end at the Tower: its drop counts twice. A place saved since counts once.
    await tripTo(request, rider.headers);
    await tripTo(request, rider.headers);
    const [recorded] = await savedPlaces(request, rider.headers);
    expect(recorded, JSON.stringify(await savedPlaces(request, rider.headers))).toMatchObject({ count: 2, label: null, name: null });
    const tower = recorded?.description ?? '';
    const gym = await request.post('/api/me/places', { headers: rider.headers, data: { description: 'Paddington Station, London', lat: 51.5154, lng: -0.1755, name: 'Gym' } });
    expect(gym.status()).toBe(201);

    // Focusing the pickup field with nothing typed offers the saved places, the most used first.
    await signIn(page, rider.email, PASSWORD);
    // The list opens on focus once the saved places are in.
    let placesLoaded = page.waitForResponse((response) => response.url().endsWith('/api/me/places'));
    await page.goto('/');
    await placesLoaded;
    const pickupField = page.getByRole('combobox', { name: 'Pickup location' });
    await pickupField.click();
    await expect(page.getByRole('listbox')).toBeVisible();
    expect(await optionTexts(page)).toEqual([tower, 'GymPaddington Station, London']);
    await expect(page.getByRole('listbox').getByText('Saved places')).toBeVisible();
    await page.screenshot({ path: `screenshots/saved-places-search-${width}.png`, animations: 'disabled' });
    // Picking one sets the point: the field shows it and the booking map has its pickup.
    await page.getByRole('option', { name: /Gym/ }).click();
    await expect(pickupField).toHaveValue('Paddington Station, London');

    // Typing shows the saved places that match above the search results.
    const dropField = page.getByRole('combobox', { name: 'Drop location' });
    await dropField.fill('station');
    await expect(page.getByRole('option', { name: "King's Cross Station, London" })).toBeVisible();
    const typed = await optionTexts(page);
    // The saved place that matches leads; the rider's drop at the Tower does not match "station".
    expect(typed[0]).toBe('GymPaddington Station, London');
    // The saved place is not offered a second time among the search results.
    expect(typed.filter((text) => text.includes('Paddington Station'))).toHaveLength(1);
    await expect(page.getByRole('listbox').getByText('Search results')).toBeVisible();
    await page.screenshot({ path: `screenshots/saved-places-typing-${width}.png`, animations: 'disabled' });
    await page.keyboard.press('Escape');

    // A place chosen from the search results is saved from the field, with a name of the rider's own.
    await dropField.fill('');
    await choosePlace(page, 'Drop location', 'kings cr', "King's Cross Station, London");
    await page.getByRole('button', { name: 'Save this place' }).click();
    const saveDialog = page.getByRole('dialog', { name: 'Save this place' });
    await saveDialog.getByLabel('Name').fill('Station');
    await page.screenshot({ path: `screenshots/saved-places-save-${width}.png`, animations: 'disabled' });
    await saveDialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Place saved.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save this place' })).toHaveCount(0);
    expect((await savedPlaces(request, rider.headers)).map((place) => place.name)).toContain('Station');

    // The profile: the Tower named Home, the station Work, a second Home refused, Gym removed.
    await page.goto('/profile');
    const card = page.getByRole('region', { name: 'Saved places' });
    await expect(card.getByRole('listitem')).toHaveCount(3);
    await card.getByRole('button', { name: `Edit ${tower}` }).click();
    let dialog = page.getByRole('dialog', { name: 'Name this place' });
    await dialog.getByRole('button', { name: 'Home' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(card.getByRole('listitem').first()).toContainText('Home');
    await card.getByRole('button', { name: 'Edit Station' }).click();
    dialog = page.getByRole('dialog', { name: 'Name this place' });
    await dialog.getByRole('button', { name: 'Work' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(card.getByText('Work', { exact: true })).toBeVisible();
    await card.getByRole('button', { name: 'Edit Gym' }).click();
    dialog = page.getByRole('dialog', { name: 'Name this place' });
    await dialog.getByRole('button', { name: 'Home' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('You already have a place with this label. Edit or remove it first.')).toBeVisible();
    await page.screenshot({ path: `screenshots/saved-places-second-home-${width}.png`, animations: 'disabled' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await card.getByRole('button', { name: 'Remove Gym' }).click();
    await expect(page.getByText('Gym removed.')).toBeVisible();
    await expect(card.getByRole('listitem')).toHaveCount(2);
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `screenshots/saved-places-profile-${width}.png`, animations: 'disabled' });
    const kept = await savedPlaces(request, rider.headers);
    expect(kept.map(({ description, count, label, name }) => ({ description, count, label, name }))).toEqual([
      { description: tower, count: 2, label: 'home', name: null },
      { description: "King's Cross Station, London", count: 1, label: 'work', name: null },
    ]);

    // Back on the booking form, Home and Work are offered by those names.
    placesLoaded = page.waitForResponse((response) => response.url().endsWith('/api/me/places'));
    await page.goto('/');
    await placesLoaded;
    await page.getByRole('combobox', { name: 'Drop location' }).click();
    await expect(page.getByRole('listbox').getByRole('option')).toHaveCount(2);
    expect(await optionTexts(page)).toEqual([`Home${tower}`, "WorkKing's Cross Station, London"]);
    await page.getByRole('option', { name: /^Home/ }).click();
    await expect(page.getByRole('combobox', { name: 'Drop location' })).toHaveValue(tower);

    // A new place is added on the profile by place search and named there.
    await page.goto('/profile');
    // The field finds addresses; it does not offer the places already saved.
    await page.getByRole('combobox', { name: 'Add a place' }).click();
    await expect(page.getByRole('listbox')).toHaveCount(0);
    await choosePlace(page, 'Add a place', 'paddington', 'Paddington Station, London');
    await page.getByRole('button', { name: 'Save this place' }).click();
    const addDialog = page.getByRole('dialog', { name: 'Save this place' });
    await addDialog.getByLabel('Name').fill('Gym');
    await addDialog.getByRole('button', { name: 'Save' }).click();
    await expect(card.getByRole('listitem')).toHaveCount(3);
    await expect(card.getByText('Gym', { exact: true })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Add a place' })).toHaveValue('');
    await page.screenshot({ path: `screenshots/saved-places-added-${width}.png`, fullPage: true, animations: 'disabled' });
  });
}

const TERMS = 'Riders pay the fare shown before booking. Cancelling after the driver arrives may cost a fee.';

for (const width of [375, 1280]) {
  test(`the terms set by the admin in Settings show on the register page and are linked from the footer (${width} px)`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 800 });
    const admin = await apiSignIn(request, 'admin@rideway.demo');
    const before = ((await (await request.get('/api/settings', { headers: admin })).json()) as { settings: { CompanyTerms: string } }).settings.CompanyTerms;
    try {
      await signIn(page, 'admin@rideway.demo');
      await page.goto('/settings');
      await page.getByLabel('Terms (a link or a short text)').fill(TERMS);
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('Updated.')).toBeVisible();
      await page.context().clearCookies();

      await page.goto('/register');
      await expect(page.getByText('By registering you accept our terms and conditions.')).toBeVisible();
      await expect(page.getByTestId('company-terms')).toHaveText(TERMS);
      await page.screenshot({ path: `screenshots/register-terms-${width}.png`, fullPage: true, animations: 'disabled' });
      const footerLink = page.getByRole('contentinfo').getByRole('link', { name: 'Terms' });
      await expect(footerLink).toHaveAttribute('href', '/terms');
      await footerLink.click();
      await expect(page).toHaveURL(/\/terms$/);
      await expect(page.getByRole('heading', { name: 'Terms and conditions' })).toBeVisible();
      await expect(page.getByTestId('company-terms')).toHaveText(TERMS);
      await page.screenshot({ path: `screenshots/terms-page-${width}.png`, fullPage: true, animations: 'disabled' });

      // A web address is the terms' link: the footer and the register page open it.
      expect((await request.patch('/api/settings', { headers: admin, data: { CompanyTerms: 'https://rideway.example/terms' } })).status()).toBe(200);
      await page.goto('/register');
      await expect(page.getByTestId('company-terms')).toHaveAttribute('href', 'https://rideway.example/terms');
      await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Terms' })).toHaveAttribute('href', 'https://rideway.example/terms');

      // Without terms, neither shows.
      expect((await request.patch('/api/settings', { headers: admin, data: { CompanyTerms: '' } })).status()).toBe(200);
      await page.goto('/register');
      await expect(page.getByRole('button', { name: 'Register' })).toBeVisible();
      await expect(page.getByTestId('company-terms')).toHaveCount(0);
      await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Terms' })).toHaveCount(0);
    } finally {
      await request.patch('/api/settings', { headers: admin, data: { CompanyTerms: before } });
    }
  });
}
