import type { Clock } from '@sesame/platform';
import type { DirectoryRepositories } from '../directory/directory.repository';
import type { KeysPeer, UsersPeer } from '../peers';
import type { AdminEventPublisher } from './admin-events';

/** What the admin routes are built from (plain factories, so tests hand in fakes). */
export interface AdminRouteDeps {
  dir: DirectoryRepositories;
  events: AdminEventPublisher;
  clock: Clock;
  users: UsersPeer;
  keys: KeysPeer;
}
