import { expect, type APIRequestContext } from '@playwright/test';
import { apiSignIn, DEMO_DRIVERS } from './session';

const pickup = { lat: 51.5308, lng: -0.1238, add: "King's Cross Station, London" };
const drop = { lat: 51.5081, lng: -0.0759, add: 'Tower of London, London' };

/** A demo rider's card trip, run through the API by a demo driver to the point where the rider pays (PENDING). */
export async function pendingCardTrip(request: APIRequestContext, rider: string): Promise<{ id: string; customer_paid: number; status: string }> {
  const riderAuth = await apiSignIn(request, rider);
  const driver = await apiSignIn(request, 'driver1@rideway.demo');
  const booked = await request.post('/api/bookings', { headers: riderAuth, data: { pickup, drop, carType: 'Economy', payment_mode: 'card' } });
  expect(booked.status()).toBe(201);
  const booking = await booked.json();
  for (const step of ['accept', 'arrive', 'start', 'reach']) {
    expect((await request.post(`/api/bookings/${booking.id}/${step}`, { headers: driver, data: {} })).status(), step).toBe(200);
  }
  const handOver = await request.post(`/api/bookings/${booking.id}/pay`, { headers: driver, data: { payment_mode: 'card' } });
  expect(handOver.status()).toBe(200);
  return handOver.json();
}

/** The demo driver whose offers include this booking: its email and signed-in headers. */
export async function driverOffered(request: APIRequestContext, bookingId: string): Promise<{ email: string; headers: Record<string, string> }> {
  for (const email of DEMO_DRIVERS) {
    const headers = await apiSignIn(request, email);
    const tasks = (await (await request.get('/api/driver/tasks', { headers })).json()).tasks as { id: string }[];
    if (tasks.some((task) => task.id === bookingId)) return { email, headers };
  }
  throw new Error(`no demo driver was offered ${bookingId}`);
}
