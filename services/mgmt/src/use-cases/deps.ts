import type { Clock } from '@sesame/platform';
import type { AdminsRepositories } from '../admins/repository';
import type { DirectoryRepositories } from '../directory/directory.repository';
import type { AdminEventPublisher } from '../events/admin-events';
import type { GrantRevocationPeer, KeysPeer, UsersPeer } from '../peers';
import type { ClientSecretVault } from '../secrets/client-secret-vault';
import type { SupportPort } from '../support/port';
import type { Invitations } from './administrators/invitations';

/** What the use cases and the admin routes are built from (plain factories, so tests hand in fakes). */
export interface AdminRouteDeps {
  dir: DirectoryRepositories;
  /** Administrator accounts, invitations and personal API tokens. */
  admins: AdminsRepositories;
  invitations: Invitations;
  events: AdminEventPublisher;
  clock: Clock;
  users: UsersPeer;
  /** Ends a user's refresh tokens in token when one of the user's devices is blocked. */
  grants: GrantRevocationPeer;
  keys: KeysPeer;
  /** Seals the copy of each client secret that interactive init signatures are checked with. */
  secretVault: ClientSecretVault;
  /**
   * Development only: an application's backchannelLogoutUri may be on a loopback host. Absent or false: such
   * an endpoint is refused when the application is saved.
   */
  allowLoopbackEndpoints?: boolean;
  /** Finding people and reading their flows; absent, the support routes answer 503. */
  support?: SupportPort;
}
