import { createBrowserRouter } from 'react-router';
import { routes } from './route-table';

/** The app's router over section 2's route table (tests run the same table in memory). */
export const router = createBrowserRouter(routes);
