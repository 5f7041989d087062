/**
 * The bookings module's public entry points. Other modules (payments) reach the trip engine
 * through these only; the engine's frame and effects stay inside the module.
 */
export { CARD_ON_FILE_JOB, payBooking, payByCardWithin } from './lifecycle';
export { afterStep } from './step';
export { bookingView, PROVIDER_PAYMENT_STATUSES } from '../dispatch/booking-view';
export { recordRefundConfirmed, REFUND_JOB } from './refunds';
export { bookingReceipt } from './receipt';
