import { runMain } from '@sesame/platform';
import { loadAuthConfig } from './config';
import { createAuthService } from './service';

await runMain(
  'auth',
  () => loadAuthConfig(),
  (config) => createAuthService(config),
);
