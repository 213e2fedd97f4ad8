import type { AsyncServer } from '@sesame/platform';
import type { directory } from '@sesame/proto';
import type { DirectoryRepositories } from '../directory/directory.repository';
import { authenticateApiCredentials } from './authenticate-api-credentials';
import { authenticateClient } from './authenticate-client';
import { getBranding } from './get-branding';
import { getClient } from './get-client';

/** The `Directory` gRPC contract over the directory. */
export function directoryGrpc(dir: DirectoryRepositories): AsyncServer<directory.DirectoryServiceServer> {
  return {
    getClient: getClient(dir.applications, dir.tenants),
    authenticateClient: authenticateClient(dir.applications),
    authenticateApiCredentials: authenticateApiCredentials(dir.credentials),
    getBranding: getBranding(dir.branding),
  };
}
