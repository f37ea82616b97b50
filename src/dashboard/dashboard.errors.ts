/** What the dashboard's guard and pages refuse: the page kit's errors (its filter turns each into a page). */
export { PageError as DashboardError, pageError as dashboardError } from '../common/pages/page.errors';
