import { createBrowserRouter } from 'react-router';
import { routes } from './route-table';

/**
 * The app's router over section 2's route table (tests run the same table in memory). main.tsx
 * makes it once the languages are in, not as the script is evaluated: matching the page's routes
 * took a phone tens of milliseconds of that one long evaluation (issue 21 point 5).
 */
export const createAppRouter = () => createBrowserRouter(routes);
export type AppRouter = ReturnType<typeof createAppRouter>;
