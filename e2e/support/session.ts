import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** Every demo account's password (apps/server/src/seed). */
const DEMO_PASSWORD = 'demo123';
export const DEMO_DRIVERS = ['driver1', 'driver2', 'driver3', 'driver4', 'driver5'].map((name) => `${name}@rideway.demo`);

/** A Bearer header for API calls made on a user's behalf beside the browser. */
export async function apiSignIn(request: APIRequestContext, email: string, password = DEMO_PASSWORD): Promise<Record<string, string>> {
  const response = await request.post('/api/auth/login', { data: { email, password } });
  expect(response.status(), email).toBe(200);
  return { authorization: `Bearer ${(await response.json()).token}` };
}

/** Signs in on the login page and waits to leave it. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

/** Types into a place field and picks the suggestion the server's place search offers. */
export async function choosePlace(page: Page, field: string, typed: string, suggestion: string): Promise<void> {
  await page.getByRole('combobox', { name: field }).fill(typed);
  await page.getByRole('option', { name: suggestion }).click();
  await expect(page.getByRole('combobox', { name: field })).toHaveValue(suggestion);
}

/** The home form filled for King's Cross to the Tower of London in an Economy car. */
export async function fillTrip(page: Page): Promise<void> {
  await choosePlace(page, 'Pickup location', 'kings cr', "King's Cross Station, London");
  await choosePlace(page, 'Drop location', 'tower of', 'Tower of London, London');
  await page.getByRole('combobox', { name: 'Vehicle type' }).click();
  await expect(page.getByRole('option').first()).toHaveText('Select car');
  await page.getByRole('option', { name: 'Economy' }).click();
}

/** Changes settings as the demo admin for the length of `run`, then puts them back. */
export async function withSettings(request: APIRequestContext, changes: Record<string, unknown>, run: () => Promise<void>): Promise<void> {
  const admin = await apiSignIn(request, 'admin@rideway.demo');
  const before = (await (await request.get('/api/settings', { headers: admin })).json()).settings as Record<string, unknown>;
  expect((await request.patch('/api/settings', { headers: admin, data: changes })).status()).toBe(200);
  try {
    await run();
  } finally {
    await request.patch('/api/settings', { headers: admin, data: Object.fromEntries(Object.keys(changes).map((key) => [key, before[key]])) });
  }
}
