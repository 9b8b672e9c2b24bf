import type { DomainModule } from '../module.ts';
import { platformAdminRoutes } from './routes.ts';

export const platformModule: DomainModule = {
  name: 'platform',
  adminRoutes: platformAdminRoutes,
};
