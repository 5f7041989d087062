import type { ProtectedRoute } from '@rideway/domain';
import type { ComponentType } from 'react';

type Screen = () => Promise<{ Component: ComponentType }>;

/**
 * The protected screens of section 2 that are built, each loaded when first opened. The router
 * serves them behind their roles and the side menu lists only these, so no entry leads nowhere.
 */
export const SCREENS: Partial<Record<ProtectedRoute, Screen>> = {
  '/dashboard': async () => ({ Component: (await import('../features/dashboard/DashboardPage')).DashboardPage }),
  '/bookings': async () => ({ Component: (await import('./routes/bookings')).BookingsRoute }),
  '/cartypes': async () => ({ Component: (await import('../features/admin/CarTypesPage')).CarTypesPage }),
  '/cancelreasons': async () => ({ Component: (await import('../features/admin/CancelReasonsPage')).CancelReasonsPage }),
  '/riders': async () => ({ Component: (await import('../features/admin/UsersPage')).RidersPage }),
  '/drivers': async () => ({ Component: (await import('../features/admin/UsersPage')).DriversPage }),
  '/fleetadmins': async () => ({ Component: (await import('../features/admin/UsersPage')).FleetAdminsPage }),
  '/addtowallet': async () => ({ Component: (await import('../features/admin/AddToWalletPage')).AddToWalletPage }),
  '/withdraws': async () => ({ Component: (await import('../features/admin/WithdrawsPage')).WithdrawsPage }),
  '/payments': async () => ({ Component: (await import('../features/admin/PaymentsPage')).PaymentsPage }),
  '/settings': async () => ({ Component: (await import('../features/admin/SettingsPage')).SettingsPage }),
  '/addbookings': async () => ({ Component: (await import('../features/booking/AddBookingPage')).AddBookingPage }),
  '/promos': async () => ({ Component: (await import('../features/admin/PromosPage')).PromosPage }),
  '/notifications': async () => ({ Component: (await import('../features/admin/NotificationsPage')).NotificationsPage }),
  '/messages': async () => ({ Component: (await import('../features/admin/MessagesPage')).MessagesPage }),
  // Issue 23 point 8: who changed what, when, with the values before and after.
  '/audit': async () => ({ Component: (await import('../features/admin/AuditLogPage')).AuditLogPage }),
  '/earningreports': async () => ({ Component: (await import('../features/admin/ReportsPages')).EarningReportsPage }),
  '/driverearning': async () => ({ Component: (await import('../features/admin/ReportsPages')).DriverEarningsPage }),
  // Issue 20: drivers' documents and their review.
  '/documents': async () => ({ Component: (await import('../features/documents/DocumentsPage')).DocumentsPage }),
  '/documentreview': async () => ({ Component: (await import('../features/documents/DocumentReviewPage')).DocumentReviewPage }),
  '/profile': async () => ({ Component: (await import('./routes/profile')).ProfileRoute }),
};

export const isBuilt = (path: string): boolean => Object.hasOwn(SCREENS, path);
