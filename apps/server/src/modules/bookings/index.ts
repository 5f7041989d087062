/**
 * The bookings module's public entry points. Other modules (payments) reach the trip engine
 * through these only; the engine's frame and effects stay inside the module.
 */
export { payBooking, payByCardWithin } from './lifecycle';
export { afterStep } from './step';
export { bookingView, PROVIDER_PAYMENT_STATUSES } from '../dispatch/booking-view';
